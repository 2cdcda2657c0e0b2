// After `npm ci`: keeps better-sqlite3's compiled addon where its install script looks first next time.
//
// That script (`prebuild-install || node-gyp rebuild`) downloads a prebuilt addon from GitHub, which
// this machine cannot reach, and then compiles SQLite from source: about a minute of C++ on every
// `npm ci`. prebuild-install looks for the download in npm's cache (~/.npm/_prebuilds/) before
// fetching it; this puts the addon just compiled there, under the name prebuild-install gives that
// download (its own functions compute it), so the next install on this machine unpacks it instead.
// It is the addon of the same version, for the same Node ABI, platform and architecture (they are
// in the name); a cached file that does not load makes the install script compile as before.
'use strict';
const { execFileSync } = require('node:child_process');
const { existsSync, mkdirSync, renameSync } = require('node:fs');
const { dirname, join } = require('node:path');

const root = join(__dirname, '..');
const pkgDir = join(root, 'node_modules', 'better-sqlite3');
const addon = join('build', 'Release', 'better_sqlite3.node');
if (!existsSync(join(pkgDir, addon))) {
  console.log('keep-addon: no compiled better-sqlite3 addon to keep');
  process.exit(0);
}
// Keeping it only saves time: whatever goes wrong here is said in one line and the run goes on.
try {
  const prebuild = join(root, 'node_modules', 'prebuild-install');
  const util = require(join(prebuild, 'util.js'));
  // rc.js reads the same settings the install script saw (npm's environment, this process's Node).
  const pkg = require(join(pkgDir, 'package.json'));
  const opts = { ...require(join(prebuild, 'rc.js'))(pkg), pkg };
  const cached = util.cachedPrebuild(util.getDownloadUrl(opts));
  if (existsSync(cached)) {
    console.log(`keep-addon: already kept at ${cached}`);
  } else {
    mkdirSync(dirname(cached), { recursive: true });
    const partial = `${cached}.${process.pid}.tmp`;
    execFileSync('tar', ['-czf', partial, '-C', pkgDir, addon]);
    renameSync(partial, cached);
    console.log(`keep-addon: kept at ${cached}`);
  }
} catch (error) {
  console.log(
    `keep-addon: not kept (${String(error instanceof Error ? error.message : error).split('\n')[0]})`,
  );
}
