import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Duplex } from 'node:stream';
import { TEST_SECRET } from './runtime.js';
import { sourceCliSessionEntry, spawnGroup, TesseraProcess } from './tessera-process.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as the one JSON object admin commands print (null when it is not JSON). */
  json: Record<string, unknown> | null;
}

/**
 * Runs the `tessera` CLI against a data dir (and database) as a person would, from its sources;
 * `stdin` is what it reads there (a secret piped in), else nothing. A command without stdin that ends
 * by itself runs in this test process's CLI session (support/cli-session.ts: the same code from the
 * same sources, without a second of module loading per command); `tesseraProcess` always starts one.
 */
export async function tessera(
  args: string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<CliResult> {
  if (stdin !== undefined || OWN_PROCESS.has(args[0] ?? '')) return tesseraProcess(args, env, stdin);
  const { code, stdout, stderr } = await session().run(args, {
    PATH: process.env.PATH ?? '',
    TESSERA_SECRET: TEST_SECRET,
    ...env,
  });
  return { code, stdout, stderr, json: parsed(stdout) };
}

/** `tessera <args>` as a process of its own, always: for its exit status, signals, stdin and start-up. */
export async function tesseraProcess(
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
  return {
    code: typeof code === 'number' ? code : -1,
    stdout: run.stdout,
    stderr: run.stderr,
    json: parsed(run.stdout),
  };
}

function parsed(stdout: string): Record<string, unknown> | null {
  try {
    return JSON.parse(stdout);
  } catch {
    return null;
  }
}

/**
 * Commands that get a process of their own: serve and worker keep running; migrate and backup are
 * log-line commands that end their process on a crash (cli/lifecycle.ts), which a session must not.
 */
const OWN_PROCESS = new Set(['serve', 'worker', 'migrate', 'backup']);

/** The CLI session of this test process: one at a time, commands queue (support/cli-session.ts). */
let current: CliSession | undefined;
function session(): CliSession {
  if (current === undefined || current.ended) current = new CliSession();
  return current;
}

class CliSession {
  ended = false;
  readonly #child: ChildProcess;
  readonly #channel: Duplex;
  readonly #answers: ((line: string | null) => void)[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  /** Whatever the session wrote outside a command's answer (it should write nothing). */
  #stray = '';

  constructor() {
    this.#child = spawnGroup(process.execPath, [sourceCliSessionEntry()], {
      env: { PATH: process.env.PATH ?? '' },
      channels: 1,
    });
    this.#channel = this.#child.stdio[3] as Duplex;
    for (const stream of [this.#child.stdout, this.#child.stderr]) {
      stream?.setEncoding('utf8').on('data', (text: string) => {
        this.#stray += text;
      });
    }
    createInterface({ input: this.#channel }).on('line', (line) => this.#answers.shift()?.(line));
    this.#child.once('close', () => {
      this.ended = true;
      for (const answer of this.#answers.splice(0)) answer(null);
    });
    this.#hold(false);
  }

  /** The session keeps this process running only while a command is under way; killAll ends it. */
  #hold(on: boolean): void {
    const channel = this.#channel as Duplex & { ref(): void; unref(): void };
    if (on) {
      this.#child.ref();
      channel.ref();
    } else {
      this.#child.unref();
      channel.unref();
    }
  }

  run(
    args: string[],
    env: Record<string, string>,
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    const result = this.#queue.then(() => this.#ask(args, env));
    this.#queue = result.catch(() => {});
    return result;
  }

  async #ask(args: string[], env: Record<string, string>) {
    if (this.ended) throw new Error(`the CLI session has ended:\n${this.#stray}`);
    this.#hold(true);
    const line = await new Promise<string | null>((resolve) => {
      this.#answers.push(resolve);
      this.#channel.write(`${JSON.stringify({ args, env })}\n`);
    }).finally(() => this.#hold(false));
    if (line === null)
      throw new Error(`the CLI session ended during tessera ${args.slice(0, 2).join(' ')}:\n${this.#stray}`);
    const answer = JSON.parse(line) as { code: number; stdout: string; stderr: string } | { error: string };
    if ('error' in answer) throw new Error(answer.error);
    if (this.#stray !== '') throw new Error(`the CLI session wrote outside a command:\n${this.#stray}`);
    return answer;
  }
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
