import pino, { type DestinationStream, type Logger } from 'pino';
import { scrub } from './scrub.js';

export type { Logger };

/**
 * The fields no log line may show, whatever logs them: the process's own lines and the request logs
 * (whose headers carry bearer tokens and session cookies).
 */
export const REDACT = {
  paths: [
    'req.headers.authorization',
    'req.headers.cookie',
    '*.password',
    '*.client_secret',
    '*.clientSecret',
    '*.token',
    '*.secret',
  ],
  censor: '[redacted]',
};

/**
 * A process's log (DESIGN §11): one pino JSON object per line (level, time, msg, fields), the shape
 * of the request logs. `to` is a file descriptor (1 stdout, 2 stderr), written synchronously so
 * the last line before an exit is never lost, or a stream (tests).
 */
export function createLogger(level: string, to: number | DestinationStream = 1): Logger {
  const destination = typeof to === 'number' ? pino.destination({ fd: to, sync: true }) : to;
  return pino({ level, redact: REDACT }, destination);
}

/**
 * The line a crash leaves: always written, whatever TESSERA_LOG_LEVEL says (silent included), since
 * a process that exits 1 without a word is worse than one line. The message is scrubbed of the
 * secrets the environment holds, in case an error repeats its input (a database URL, say).
 */
export function logFatal(to: number | DestinationStream, error: unknown, env: NodeJS.ProcessEnv): void {
  const { fields, message } = described(error, env);
  createLogger('fatal', to).fatal(fields, message);
}

/**
 * The line of an error nothing waited for that does not end the process (see cli/lifecycle.ts):
 * level error, written whatever TESSERA_LOG_LEVEL says but `silent`, scrubbed like logFatal's.
 */
export function logEscaped(to: number | DestinationStream, error: unknown, env: NodeJS.ProcessEnv): void {
  const { fields, message } = described(error, env);
  const level = env.TESSERA_LOG_LEVEL === 'silent' ? 'silent' : 'error';
  createLogger(level, to).error({ ...fields, escaped: true }, message);
}

function described(error: unknown, env: NodeJS.ProcessEnv) {
  const err = error instanceof Error ? error : new Error(String(error));
  const code = (err as { code?: unknown }).code;
  return {
    fields: { err: { type: err.name, ...(typeof code === 'string' ? { code } : {}) } },
    message: scrub(err.message, env),
  };
}
