// The root `prepare` script, which `npm ci` and `npm install` run: builds every package
// (`npm run build`). Without the dev dependencies (`npm ci --omit=dev`, `npm prune --omit=dev`)
// TypeScript is not there to build with: a tree that is built already is kept as it is, and one
// that is not says in one line how to install instead of failing on `tsc: not found`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);

function installed(name) {
  try {
    require.resolve(`${name}/package.json`, { paths: [root] });
    return true;
  } catch {
    return false;
  }
}

if (installed('typescript') && installed('vite')) {
  const npm = process.env.npm_execpath;
  const build = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  process.exit(build.status ?? 1);
}

const built = ['packages/server/dist/cli/main.js', 'packages/console/dist/index.html'].every((f) =>
  existsSync(new URL(f, `file://${root}`)),
);
if (built) {
  process.stdout.write('prepare: dev dependencies are not installed; keeping the existing build\n');
  process.exit(0);
}
process.stderr.write(
  'prepare: cannot build without the dev dependencies: install with `npm ci`, then `npm prune --omit=dev` (docs/deploying.md)\n',
);
process.exit(1);
