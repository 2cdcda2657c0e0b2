import { isDatabaseUnavailable } from './unavailable.js';

/** How many times a start-up step is run before its connection error is the start's failure. */
const ATTEMPTS = 3;

/**
 * Runs a start-up step that uses the database once it has been reached (after the migrations), and
 * runs it again when it fails because a connection ended — at most ATTEMPTS times in all.
 *
 * Such a step can meet a pooled connection the database ended while the process was busy starting
 * (`idle_session_timeout`, a proxy's idle limit): the ending sits unread on the socket until the
 * next query is written to it, which then fails. A serving process answers that one request 503 and
 * the pool opens a new connection; at start-up the same error would end the process. The steps
 * wrapped here are idempotent (ensure the console's org and client, record the served URL, read keys),
 * so running one again is safe. Any other error, and the last attempt's, is thrown as it came.
 */
export async function retriedWhenConnectionsEnd<T>(
  step: () => Promise<T>,
  warn: (line: string) => void,
  attempts = ATTEMPTS,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (attempt >= attempts || !isDatabaseUnavailable(error)) throw error;
      warn(`database connection lost while starting: ${(error as Error).message}; trying again`);
    }
  }
}
