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
