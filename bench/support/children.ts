import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';

// How a benchmark starts its servers: each in a child process of its own, with an IPC channel. Everything
// the run creates registers its undo here, so an error or Ctrl-C still leaves no servers, temp dirs or
// databases behind.
const undo: Array<() => unknown> = [];

export function onCleanup(fn: () => unknown): void {
  undo.push(fn);
}

export async function cleanup(): Promise<void> {
  for (const fn of undo.splice(0).reverse()) {
    try {
      await fn();
    } catch (error) {
      process.stderr.write(`cleanup: ${(error as Error).message}\n`);
    }
  }
}

/**
 * Runs a benchmark's `main`: Ctrl-C (or SIGTERM) and an uncaught error (EPIPE when the output is
 * piped into `head`, say) still stop the servers and drop the temp data; a failure is one line and
 * exit code 1. Every bench's entry ends with this.
 */
export async function runBench(main: () => Promise<void>): Promise<void> {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void cleanup().finally(() => process.exit(130));
    });
  }
  process.once('uncaughtException', (error) => {
    process.stderr.write(`\nbench failed: ${error.message}\n`);
    void cleanup().finally(() => process.exit(1));
  });
  try {
    await main();
  } catch (error) {
    process.exitCode = 1;
    console.error(`\nbench failed: ${(error as Error).message}`);
  } finally {
    await cleanup();
  }
}

/** A port that was free a moment ago: Tessera must know its port before it starts (TESSERA_URL). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (typeof address !== 'object' || !address) throw new Error('could not find a free port');
  return address.port;
}

export const ROOT = new URL('../../', import.meta.url);

// Loaded into every long-lived child: the IPC channel closes when the parent dies, even by SIGKILL,
// and the child then stops itself instead of holding its port forever.
// Plain JavaScript, so a child that runs without tsx (the built `tessera`) loads it too.
const EXIT_WITH_PARENT = pathToFileURL(new URL('./exit-with-parent.mjs', import.meta.url).pathname).href;

/**
 * The `tessera` command as `npm start` and an install run it: the compiled CLI (dist/), which
 * scripts/bench.mjs brings up to date before every bench. Run from source under tsx, the server held
 * ~80 MB more (each module's transpiled text with its source map) and paid a module's transpiling the
 * first time a request needed it, neither of which a deployment has. BENCH_TESSERA=source runs the
 * TypeScript source instead (to profile a change before building it, or to compare the two).
 */
const TESSERA_BIN = new URL('packages/server/bin/tessera.mjs', ROOT).pathname;
const TESSERA_SOURCE = new URL('packages/server/src/cli/main.ts', ROOT).pathname;
/** Node's arguments that run TypeScript sources (the workspace packages' sources too). */
const TSX = ['--conditions=tessera-source', '--import', 'tsx'];

export interface Child {
  process: ChildProcess;
  /** The child's stderr so far, with lines that could carry a secret removed. */
  log(): string;
}

/**
 * Node options for every child server, from BENCH_CHILD_NODE_ARGS (space-separated): to profile the
 * served process, say `BENCH_CHILD_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'` (a profile is
 * written when the child exits, which the bench's cleanup makes it do).
 */
function childNodeArgs(): string[] {
  return (process.env.BENCH_CHILD_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
}

/**
 * Starts a TypeScript entry point under tsx. stdout goes to /dev/null: Tessera logs every request
 * there and writing it to a pipe we do not read would stall the server.
 */
export function spawnTs(entry: string, args: string[], env: NodeJS.ProcessEnv): Child {
  return spawnNode([...TSX, entry, ...args], env);
}

/** Runs `tessera <args>` (tesseraCommand) as a child server. */
export function spawnTessera(args: string[], env: NodeJS.ProcessEnv): Child {
  return spawnNode(tesseraCommand(args), env);
}

/** Node's arguments for `tessera <args>`: TESSERA_BIN, or the source under tsx with BENCH_TESSERA=source. */
export function tesseraCommand(args: string[]): string[] {
  return process.env.BENCH_TESSERA === 'source' ? [...TSX, TESSERA_SOURCE, ...args] : [TESSERA_BIN, ...args];
}

function spawnNode(nodeArgs: string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, [...childNodeArgs(), '--import', EXIT_WITH_PARENT, ...nodeArgs], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  onCleanup(() => stop(child));
  return { process: child, log: () => redact(stderr) };
}

/** SIGTERM, then SIGKILL if it has not exited 5 s later. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** A child's output as shown on failure, without any line that mentions a secret or a password. */
export function redact(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/secret|password|curl /i.test(line))
    .join('\n')
    .trim();
}

/** Waits for `ready`, failing early (with the child's stderr) if the child exits first. */
export async function untilReady<T>(child: Child, name: string, ready: Promise<T>): Promise<T> {
  let onExit = (_code: number | null) => {};
  const died = new Promise<never>((_, reject) => {
    onExit = (code) =>
      reject(new Error(`${name} exited (code ${code}) before it was ready:\n${child.log()}`));
    child.process.once('exit', onExit);
  });
  try {
    return await Promise.race([ready, died]);
  } finally {
    child.process.off('exit', onExit);
  }
}
