// Type-checks every TypeScript project of the workspace: each tsconfig.json under packages/ and bench/.
// The console's API types are generated first (packages/console/scripts/api-types.mjs).
// Usage: npm run typecheck
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name === 'tsconfig.json') out.push(relative(root, dir));
  }
  return out;
}

// The console's API types are generated from the server's OpenAPI document, not kept in git.
const generated = spawnSync(process.execPath, [join(root, 'packages/console/scripts/api-types.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
if (generated.status !== 0) {
  console.log('FAILED  packages/console/scripts/api-types.mjs');
  process.exit(1);
}

const projects = ['packages', 'bench'].flatMap((d) => walk(join(root, d), [])).sort();
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
let failed = 0;
for (const project of projects) {
  const result = spawnSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
  console.log(`${result.status === 0 ? 'ok' : 'FAILED'}  ${project}`);
  if (result.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
