#!/usr/bin/env node
// The `tessera` command (and `npm start`): runs the compiled CLI (dist/, written by `npm run build`) in
// this process. Before a build it says so in one line instead of Node's stack trace.
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write(
    'tessera: packages/server/dist is missing: run `npm run build` first (`npm ci` builds it too)\n',
  );
  process.exit(1);
}
await import(main.href);
