import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { TEST_SECRET } from './runtime.js';

/**
 * Every process a test starts leads a process group of its own (detached), and ending it ends the
 * whole group, so nothing it started lives on. A group still running when the test file ends (a
 * test failed before its cleanup) or when the test process is interrupted (Ctrl-C reaches the test
 * runner's group, not a detached one) is killed then.
 */
const running = new Set<ChildProcess>();

/** Kills every process group started here that still runs. */
export function killAll(): void {
  for (const child of running) killGroup(child, 'SIGKILL');
}

after(killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killAll();
    process.kill(process.pid, signal);
  });
}

/**
 * Starts `command` in a process group of its own, with stdout and stderr piped; stdin is `stdin`
 * when given (then closed), left open for the caller to write when `openStdin`, else empty.
 */
export function spawnGroup(
  command: string,
  args: readonly string[],
  options: {
    cwd?: string;
    env: NodeJS.ProcessEnv;
    stdin?: string;
    openStdin?: boolean;
    /** Further pipes, as fd 3, 4, ... of the child (child.stdio[3] ... here): each one a duplex socket. */
    channels?: number;
    uid?: number;
    gid?: number;
  },
): ChildProcess {
  const { stdin, openStdin, channels = 0, ...rest } = options;
  const child = spawn(command, args, {
    ...rest,
    detached: true,
    stdio: [
      stdin === undefined && !openStdin ? 'ignore' : 'pipe',
      'pipe',
      'pipe',
      ...Array.from({ length: channels }, () => 'pipe' as const),
    ],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (stdin !== undefined) child.stdin?.end(stdin);
  return child;
}

/**
 * Runs node with `args` in a process group of its own (see spawnGroup) with exactly `env`, and
 * resolves with its exit code and what it printed once it has exited.
 */
export function runNode(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnGroup(process.execPath, args, options);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Sends `signal` to the process group `child` leads, while it runs. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

/**
 * The `tessera` CLI from its TypeScript sources, bundled once per change of the sources and shared by
 * the test files of a run (support/cli-bundle.mjs says how and why); the compiled CLI has its own test.
 */
let sourceCli: readonly string[] | undefined;
function sourceCliEntry(): readonly string[] {
  sourceCli ??= [
    execFileSync(process.execPath, [fileURLToPath(new URL('./cli-bundle.mjs', import.meta.url))], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  ];
  return sourceCli;
}

/** The bundle's entry of support/cli-session.ts, beside the CLI's (support/cli.ts runs it). */
export function sourceCliSessionEntry(): string {
  return join(dirname(sourceCliEntry()[0] as string), 'session.mjs');
}

/**
 * `tessera <args>` (by default from its sources; `entry` is what node runs instead), in a process group
 * of its own, with exactly `env` plus PATH. Keeps its stdout, whole and as lines, and its stderr.
 */
export class TesseraProcess {
  readonly lines: string[] = [];
  #stdout = '';
  #stderr = '';
  #closed = false;
  readonly #child: ChildProcess;
  readonly #exit: Promise<number | NodeJS.Signals>;

  constructor(
    args: readonly string[],
    env: Record<string, string>,
    options: {
      entry?: readonly string[];
      cwd?: string;
      stdin?: string;
      /** Another user to run as (this process must be root). */
      user?: { uid: number; gid: number };
    } = {},
  ) {
    this.#child = spawnGroup(process.execPath, [...(options.entry ?? sourceCliEntry()), ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
      ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
      ...(options.user ?? {}),
    });
    let partial = '';
    this.#child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      this.#stdout += text;
      const parts = (partial + text).split('\n');
      partial = parts.pop() ?? '';
      this.lines.push(...parts);
    });
    this.#child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      this.#stderr += text;
    });
    this.#exit = new Promise((resolve, reject) => {
      this.#child.once('error', reject);
      this.#child.once('close', (code, signal) => {
        if (partial) this.lines.push(partial);
        this.#closed = true;
        resolve(code ?? (signal as NodeJS.Signals));
      });
    });
    // A failure to start rejects exited() and stop(); it must not also end the test process.
    this.#exit.catch(() => {});
  }

  /** `tessera serve --port <port>` (by default with the test secret and no logs), once /healthz answers. */
  static serve(port: number, env: Record<string, string>): Promise<TesseraProcess> {
    return new TesseraProcess(['serve', '--port', String(port)], {
      TESSERA_SECRET: TEST_SECRET,
      TESSERA_LOG_LEVEL: 'silent',
      ...env,
    }).untilServing(port);
  }

  /** `tessera worker`, once it logged that it started (needs TESSERA_LOG_LEVEL info or debug). */
  static worker(env: Record<string, string>): Promise<TesseraProcess> {
    const p = new TesseraProcess(['worker'], {
      TESSERA_SECRET: TEST_SECRET,
      TESSERA_LOG_LEVEL: 'silent',
      ...env,
    });
    return p.#started(() => p.lines.some((l) => l.includes('webhook delivery worker started')));
  }

  /** This process, once it answers /healthz on `port` of 127.0.0.1; killed if it never does. */
  untilServing(port: number): Promise<this> {
    return this.#started(async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
      } catch {
        return false;
      }
    });
  }

  /** This process once `ready` holds; if it never does (it exited, or 30 s passed), it is killed. */
  async #started(ready: () => boolean | Promise<boolean>): Promise<this> {
    try {
      await this.#until(async () => (await ready()) || undefined);
      return this;
    } catch (error) {
      await this.stop('SIGKILL');
      throw error;
    }
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Whether the process is still running (it has neither exited nor been killed). */
  get running(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }

  get stdout(): string {
    return this.#stdout;
  }

  get stderr(): string {
    return this.#stderr;
  }

  /** Every stdout line parsed as JSON (throws on the first line that is not). */
  logs(): Record<string, unknown>[] {
    return this.lines.map((line) => {
      const parsed = parse(line);
      if (parsed === null) throw new Error(`not a JSON line: ${line}`);
      return parsed;
    });
  }

  /** Waits for a stdout line that parses and satisfies `match`; fails if the process ends first. */
  waitForLog(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    return this.#until(() =>
      this.lines.map(parse).find((l): l is Record<string, unknown> => l !== null && match(l)),
    );
  }

  /** The exit code (or the signal that ended it), once it has exited and its output is read. */
  exited(): Promise<number | NodeJS.Signals> {
    return this.#exit;
  }

  /** Sends `signal` to its process group and waits for it to exit. */
  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | NodeJS.Signals> {
    killGroup(this.#child, signal);
    return this.#exit;
  }

  /** What `check` finds; fails with everything the process wrote if it ends first or 30 s pass. */
  async #until<T>(check: () => T | undefined | Promise<T | undefined>): Promise<T> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const closed = this.#closed;
      const found = await check();
      if (found !== undefined) return found;
      if (closed || Date.now() > deadline) {
        throw new Error(
          `tessera ${closed ? 'exited' : 'is not there yet'}; stdout:\n${this.#stdout}\nstderr:\n${this.#stderr}`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function parse(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}
