import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_SECRET } from './runtime.js';

/** The CLI's TypeScript entry, run through tsx (no build needed); the compiled bin has its own test. */
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const SOURCE_ARGS = ['--conditions=tessera-source', '--import', 'tsx', MAIN];

/** A second Tessera process (`tessera serve`) on the same storage, for tests across nodes. */
export async function startChildServer(
  env: Record<string, string>,
  port: number,
): Promise<{ close(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [...SOURCE_ARGS, 'serve', '--port', String(port)], {
    env: { PATH: process.env.PATH ?? '', TESSERA_SECRET: TEST_SECRET, TESSERA_LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`child server exited: ${stderr}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`child server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
