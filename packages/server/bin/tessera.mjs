#!/usr/bin/env node
// The `tessera` command: runs the TypeScript CLI through tsx so the repo needs no build step.
// Signals sent to this wrapper (Ctrl-C, `kill`, a supervisor's SIGTERM) are passed on to the real
// process, and the wrapper exits the way it did, so stopping `tessera serve` never leaves it orphaned.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const child = spawn(
  process.execPath,
  ['--conditions=tessera-source', '--import', 'tsx', main, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null) child.kill(signal);
  });
}

child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
