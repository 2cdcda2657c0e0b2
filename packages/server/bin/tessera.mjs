#!/usr/bin/env node
// The `tessera` command: runs the TypeScript CLI through tsx so the repo needs no build step.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const result = spawnSync(
  process.execPath,
  ['--conditions=tessera-source', '--import', 'tsx', main, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
