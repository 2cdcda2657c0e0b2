import pino, { type DestinationStream, type Logger } from 'pino';

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
  const err = error instanceof Error ? error : new Error(String(error));
  const code = (err as { code?: unknown }).code;
  createLogger('fatal', to).fatal(
    { err: { type: err.name, ...(typeof code === 'string' ? { code } : {}) } },
    scrub(err.message, env),
  );
}

/** `text` with TESSERA_SECRET and the password of DATABASE_URL replaced by `[redacted]`. */
export function scrub(text: string, env: NodeJS.ProcessEnv): string {
  const secrets = new Set([env.TESSERA_SECRET ?? '', ...databasePasswords(env.DATABASE_URL ?? '')]);
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 3) continue;
    for (const form of [secret, encodeURIComponent(secret)]) out = out.split(form).join('[redacted]');
  }
  return out;
}

/** The password of a database URL as written and decoded (none when it has none). */
function databasePasswords(url: string): string[] {
  const written = /^[^:]+:\/\/[^:/@]*:([^@/]*)@/.exec(url)?.[1];
  if (!written) return [];
  try {
    return [written, decodeURIComponent(written)];
  } catch {
    return [written];
  }
}
