import { type ChildProcess, execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnGroup } from '../../support/tessera-process.js';

/**
 * A tutorial page's fenced code blocks, told apart by their info string:
 * - ` ```sh ` is shown and not run (an install, a clone, the Tessera the test starts itself);
 * - ` ```sh run [checkout] ` runs to its end in bash (`set -euo pipefail`), in the reader's project folder
 *   or, with `checkout`, in the Tessera checkout; it must exit 0;
 * - ` ```sh background NAME [checkout] ` starts a process that keeps running (a server, a client waiting for
 *   a sign-in), known as NAME;
 * - ` ```js file=F ` (any language) is a part of the file F of the project folder, in the page's order;
 * - ` ```text output [NAME] ` is what the process NAME prints (waited for), or without NAME what the last
 *   `run` block printed: each line, in order, is a whole line of that output; `…` stands for any text.
 * Other blocks (`http`, `mermaid`) are not read.
 */
export type Block =
  | { kind: 'shown'; text: string }
  | { kind: 'run'; text: string; inCheckout: boolean }
  | { kind: 'background'; text: string; name: string; inCheckout: boolean }
  | { kind: 'file'; text: string; file: string }
  | { kind: 'output'; text: string; name: string | null };

export function tutorialBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const match of markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)) {
    const info = (match[1] ?? '').trim().split(/\s+/);
    const text = match[2] ?? '';
    const [language, what, ...rest] = info;
    const file = info.find((word) => word.startsWith('file='))?.slice('file='.length);
    if (file) blocks.push({ kind: 'file', text, file });
    else if (language === 'sh' && what === undefined) blocks.push({ kind: 'shown', text });
    else if (language === 'sh' && what === 'run') {
      blocks.push({ kind: 'run', text, inCheckout: rest.includes('checkout') });
    } else if (language === 'sh' && what === 'background' && rest[0]) {
      blocks.push({ kind: 'background', text, name: rest[0], inCheckout: rest.includes('checkout') });
    } else if (language === 'text' && what === 'output') {
      blocks.push({ kind: 'output', text, name: rest[0] ?? null });
    }
  }
  return blocks;
}

interface Process {
  child: ChildProcess;
  output: string;
}

export interface FollowOptions {
  /** The reader's project folder (files are written there, `run` blocks run there). */
  project: string;
  /** The Tessera checkout. */
  checkout: string;
  /** The environment of every command (PATH included). */
  env: Record<string, string>;
  /** The page's addresses made this run's (its ports are the reader's). */
  localize: (text: string) => string;
  /** Called while an output is awaited, with the awaited process's name and what it printed so far. */
  waiting?: (name: string, output: string) => Promise<void>;
  /** How long an awaited output may take. */
  timeoutMs?: number;
}

/** What following a page left: the processes still running (the caller stops them) and a transcript. */
export interface Followed {
  running: Map<string, Process>;
  transcript: string[];
}

/**
 * Follows `blocks` in order, as a reader would. Throws, naming the block, when a command fails or an
 * output is not printed within the timeout; the transcript (each command and what it printed) is in the
 * error. The processes started are in `followed.running` even when it throws.
 */
export async function follow(blocks: readonly Block[], options: FollowOptions, followed: Followed) {
  let last: string | null = null;
  const written = new Set<string>();
  const fail = (what: string): never => {
    throw new Error(`${what}\n--- transcript\n${followed.transcript.join('\n')}`);
  };
  for (const block of blocks) {
    const text = options.localize(block.text);
    if (block.kind === 'file') {
      // The parts of one file, in the page's order, a blank line between them.
      const path = join(options.project, block.file);
      if (written.has(block.file)) appendFileSync(path, `\n${text}`);
      else writeFileSync(path, text);
      written.add(block.file);
    } else if (block.kind === 'run') {
      followed.transcript.push(`$ ${text}`);
      const run = start(text, block.inCheckout ? options.checkout : options.project, options.env);
      const code = await new Promise<number | null>((resolve) => run.child.once('close', resolve));
      followed.transcript.push(run.output);
      if (code !== 0) fail(`this block exited ${code}:\n${text}`);
      last = run.output;
    } else if (block.kind === 'background') {
      followed.transcript.push(`$ ${text} &   (${block.name})`);
      followed.running.set(
        block.name,
        start(text, block.inCheckout ? options.checkout : options.project, options.env),
      );
    } else if (block.kind === 'output') {
      const expected = text.split('\n').filter((line) => line.length > 0);
      if (block.name === null) {
        if (last === null) fail(`an output before any run block:\n${text}`);
        if (!printedInOrder(last ?? '', expected)) fail(`the last run block did not print:\n${text}`);
        continue;
      }
      const awaited = followed.running.get(block.name) ?? fail(`no process "${block.name}"`);
      const until = Date.now() + (options.timeoutMs ?? 20_000);
      while (!printedInOrder(awaited.output, expected)) {
        if (Date.now() > until || awaited.child.exitCode !== null) {
          fail(`"${block.name}" did not print:\n${text}\n--- it printed\n${awaited.output}`);
        }
        await options.waiting?.(block.name, awaited.output);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }
}

/** `script` in bash, in a process group of its own; what it prints, stdout and stderr, in `output`. */
function start(script: string, cwd: string, env: Record<string, string>): Process {
  const child = spawnGroup('bash', ['-c', `set -euo pipefail\n${script}`], { cwd, env });
  const started: Process = { child, output: '' };
  const keep = (chunk: Buffer) => {
    started.output += chunk.toString().replaceAll('\r', '');
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return started;
}

/** Whether each of `expected` is a whole line of `output`, in that order (`…` is any text). */
export function printedInOrder(output: string, expected: readonly string[]): boolean {
  const lines = output.split('\n');
  let at = 0;
  for (const line of expected) {
    const pattern = new RegExp(`^${line.split('…').map(literal).join('.*')}$`);
    while (at < lines.length && !pattern.test(lines[at] ?? '')) at += 1;
    if (at === lines.length) return false;
    at += 1;
  }
  return true;
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A folder of stand-ins put first on PATH: `npx tessera …` runs the `tessera` CLI built from this
 * checkout's sources (support/cli-bundle.mjs) with `env` (the test server's data dir and secret), as
 * `npx tessera` in the checkout runs the built CLI against the running service's data dir.
 */
export function cliStandIn(dir: string, env: Record<string, string>): string {
  const entry = execFileSync(
    process.execPath,
    [fileURLToPath(new URL('../../support/cli-bundle.mjs', import.meta.url))],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  const assignments = Object.entries(env)
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
    .join(' ');
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh\n# npx stand-in: only \`npx tessera …\`\n[ "$1" = tessera ] || { echo "npx stand-in: $*" >&2; exit 1; }\nshift\nexec env ${assignments} ${JSON.stringify(process.execPath)} ${JSON.stringify(entry)} "$@"\n`,
  );
  chmodSync(join(bin, 'npx'), 0o755);
  return bin;
}

/** PATH for the commands: the stand-ins, this node, then the system's. */
export function tutorialPath(standIns: string): string {
  return [standIns, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
}
