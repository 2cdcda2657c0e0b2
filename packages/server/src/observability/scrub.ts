/**
 * Secrets out of text meant for a log line or the terminal. Its own file, apart from the logger, so
 * the CLI can print an error without loading pino (`tessera --help` loads nothing it does not need).
 */

/**
 * `text` with TESSERA_SECRET and the passwords of DATABASE_URL, TESSERA_DB_LISTEN_URL and
 * TESSERA_DB_READ_URL replaced by `[redacted]`.
 */
export function scrub(text: string, env: NodeJS.ProcessEnv): string {
  const urls = [env.DATABASE_URL, env.TESSERA_DB_LISTEN_URL, env.TESSERA_DB_READ_URL];
  const secrets = new Set([env.TESSERA_SECRET ?? '', ...urls.flatMap((url) => databasePasswords(url ?? ''))]);
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
