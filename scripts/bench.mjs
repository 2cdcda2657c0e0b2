// Runs one benchmark: npm run bench -- <name>  (a folder of bench/ with a run.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const available = readdirSync(join(root, 'bench')).filter((d) =>
  existsSync(join(root, 'bench', d, 'run.ts')),
);
const name = process.argv[2];
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <${available.join('|')}>`);
  process.exit(2);
}
// The server a bench starts is the built one, as `npm start` runs it (bench/support/children.ts): bring
// dist/ up to date first (tsc -b: a second or so when nothing changed).
if (process.env.BENCH_TESSERA !== 'source') {
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json'],
    { cwd: root, stdio: 'inherit' },
  );
  if (build.status !== 0) {
    console.error('bench: the build failed (npm run build); nothing was measured');
    process.exit(build.status ?? 1);
  }
}
const result = spawnSync(
  process.execPath,
  [
    '--conditions=tessera-source',
    '--import',
    'tsx',
    join(root, 'bench', name, 'run.ts'),
    ...process.argv.slice(3),
  ],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
