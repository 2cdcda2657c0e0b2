#!/usr/bin/env node
// The `tessera` command: runs the compiled CLI (dist/, written by `npm run build`) in this process.
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('tessera: packages/server/dist is missing: run npm run build first\n');
  process.exit(1);
}
await import(main.href);
