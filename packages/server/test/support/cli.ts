import { TEST_SECRET } from './runtime.js';
import { TesseraProcess } from './tessera-process.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as the one JSON object admin commands print (null when it is not JSON). */
  json: Record<string, unknown> | null;
}

/**
 * Runs the `tessera` CLI against a data dir (and database) as a person would, from its sources;
 * `stdin` is what it reads there (a secret piped in), else nothing.
 */
export async function tessera(
  args: string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<CliResult> {
  const run = new TesseraProcess(
    args,
    { TESSERA_SECRET: TEST_SECRET, ...env },
    stdin === undefined ? {} : { stdin },
  );
  const code = await run.exited();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(run.stdout);
  } catch {
    json = null;
  }
  return { code: typeof code === 'number' ? code : -1, stdout: run.stdout, stderr: run.stderr, json };
}

/** The environment that points the CLI at a test server's storage. */
export function cliEnv(server: { dataDir: string; base: string; config: { databaseUrl: string | null } }) {
  return {
    TESSERA_DATA_DIR: server.dataDir,
    TESSERA_URL: server.base,
    ...(server.config.databaseUrl ? { DATABASE_URL: server.config.databaseUrl } : {}),
  };
}

/**
 * An org and one confidential machine client made through the real CLI, as an operator would:
 * `tessera org create`, then `tessera client create --confidential`. Fails the test on any error.
 */
export async function cliOrgWithMachineClient(
  env: Record<string, string>,
  slug: string,
): Promise<{ clientId: string; clientSecret: string }> {
  const org = await tessera(
    [
      'org',
      'create',
      '--slug',
      slug,
      '--owner-email',
      `o@${slug}.test`,
      '--owner-password',
      'owner password 1',
    ],
    env,
  );
  if (org.code !== 0) throw new Error(`tessera org create failed: ${org.stderr}`);
  const client = await tessera(
    ['client', 'create', '--org', slug, '--name', 'Worker', '--confidential'],
    env,
  );
  if (client.code !== 0) throw new Error(`tessera client create failed: ${client.stderr}`);
  return { clientId: client.json?.clientId as string, clientSecret: client.json?.clientSecret as string };
}
