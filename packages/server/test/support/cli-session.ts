import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { runCommandLine } from '../../src/cli/command-line.js';

/**
 * One process that runs many `tessera` commands, one after another, for the tests (support/cli.ts):
 * loading the CLI's modules costs about a second of CPU per process, its commands a fraction of that.
 * Each command runs through runCommandLine, the very function `tessera` (cli/main.ts) runs, with the
 * environment it is given in place of this process's, and what it writes to stdout and stderr (through
 * process.stdout/stderr or straight to fd 1 and 2, as the logger does) is kept for its answer.
 *
 * Commands come on fd 3 as JSON lines `{"args": [...], "env": {...}}`; each answer goes back on fd 3 as
 * `{"code", "stdout", "stderr"}` once the command has ended. stdin is /dev/null, as for a `tessera`
 * the tests start without input. A command must end as a process would: one that leaves something
 * behind that would keep a process running (a socket, a timer, a file handle) is answered with an
 * error instead, as is a command that keeps running (serve, worker: they run as real processes).
 */
const channel = new Socket({ fd: 3, readable: true, writable: true });

let captured: { stdout: string; stderr: string } | null = null;

/**
 * The text of a write to fd 1 or 2 while a command runs, kept for its answer (null for any other
 * write): a string, or the bytes a buffer's offset and length (arguments or options) select.
 */
function capture(fd: unknown, data: unknown, rest: unknown[]): string | null {
  if (captured === null || (fd !== 1 && fd !== 2)) return null;
  let text: string;
  if (typeof data === 'string') {
    text = data;
  } else {
    const view = data as ArrayBufferView;
    const bytes = Buffer.from(view.buffer, view.byteOffset, view.byteLength);
    const options =
      typeof rest[0] === 'object' && rest[0] !== null
        ? (rest[0] as { offset?: number; length?: number })
        : {};
    const offset = typeof rest[0] === 'number' ? rest[0] : (options.offset ?? 0);
    const length = typeof rest[1] === 'number' ? rest[1] : (options.length ?? bytes.length - offset);
    text = bytes.subarray(offset, offset + length).toString('utf8');
  }
  if (fd === 1) captured.stdout += text;
  else captured.stderr += text;
  return text;
}

const writeSync = fs.writeSync;
fs.writeSync = ((fd: number, data: unknown, ...rest: unknown[]) => {
  const text = capture(fd, data, rest);
  if (text !== null) return Buffer.byteLength(text);
  return (writeSync as (...a: unknown[]) => number)(fd, data, ...rest);
}) as typeof fs.writeSync;
const write = fs.write;
fs.write = ((fd: number, data: unknown, ...rest: unknown[]) => {
  const callback = rest.pop() as (error: null, written: number, data: unknown) => void;
  const text = capture(fd, data, rest);
  if (text !== null) {
    process.nextTick(() => callback(null, Buffer.byteLength(text), data));
    return;
  }
  (write as (...a: unknown[]) => void)(fd, data, ...rest, callback);
}) as typeof fs.write;
syncBuiltinESMExports();
for (const [fd, stream] of [
  [1, process.stdout],
  [2, process.stderr],
] as const) {
  const original = stream.write.bind(stream) as (...a: unknown[]) => boolean;
  stream.write = ((data: unknown, ...rest: unknown[]) => {
    if (captured === null) return original(data, ...rest);
    // A stream takes a string (with its encoding) or bytes, whole.
    const encoding = typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : 'utf8';
    capture(fd, typeof data === 'string' ? Buffer.from(data, encoding) : data, []);
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    if (callback) process.nextTick(callback);
    return true;
  }) as typeof stream.write;
}

/** What keeps this process running, by kind (ref'd handles and timers: the channel to the tests among them). */
function resources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** The kinds of which more are active than `before` had. */
function leftBehind(before: Map<string, number>): string[] {
  return [...resources()].filter(([kind, n]) => n > (before.get(kind) ?? 0)).map(([kind]) => kind);
}

async function runOne(args: string[], env: Record<string, string>) {
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, env);
  const before = resources();
  captured = { stdout: '', stderr: '' };
  let code: number | 'running';
  try {
    code = await runCommandLine(args);
  } finally {
    // Writes a command started but did not wait for still belong to it.
    await new Promise((r) => setImmediate(r));
  }
  const { stdout, stderr } = captured;
  captured = null;
  if (code === 'running') return { error: `tessera ${args[0]} keeps running: start it as a process` };
  // Closing a pool or a socket may finish on a later turn of the loop: up to 2 s, on a busy machine.
  let left = leftBehind(before);
  for (let i = 0; left.length > 0 && i < 200; i++) {
    await new Promise((r) => setTimeout(r, 10));
    left = leftBehind(before);
  }
  if (left.length > 0) {
    return {
      error: `tessera ${args.slice(0, 2).join(' ')} left ${left.join(', ')} open: a process would not exit`,
    };
  }
  return { code, stdout, stderr };
}

for await (const line of createInterface({ input: channel })) {
  const { args, env } = JSON.parse(line) as { args: string[]; env: Record<string, string> };
  let answer: object;
  try {
    answer = await runOne(args, env);
  } catch (error) {
    captured = null;
    answer = { error: `the session failed: ${String((error as Error)?.stack ?? error)}` };
  }
  channel.write(`${JSON.stringify(answer)}\n`);
}
channel.end();
