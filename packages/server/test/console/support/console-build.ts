import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNode } from '../../support/tessera-process.js';

const CONSOLE_PACKAGE = fileURLToPath(new URL('../../../../console/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const VITE = join(ROOT, 'node_modules/vite/bin/vite.js');
/** Builds by the hash of the console's sources, kept beside the test runner's other scratch files. */
const CACHE = join(ROOT, 'node_modules/.cache/tessera-console-builds');

/** The console's own files (sources, index.html, configuration), not what builds or installs write. */
function sourcesHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (name === 'node_modules' || name === 'dist') continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(relative(CONSOLE_PACKAGE, path)).update('\0').update(readFileSync(path)).update('\0');
    }
  };
  walk(CONSOLE_PACKAGE);
  return hash.digest('hex').slice(0, 20);
}

let built: Promise<string> | undefined;

/**
 * The console built from its sources as they are now (not a dist/ an earlier build left): what the
 * server then serves at /console/. A build is kept by its sources' hash, so the run's other test
 * processes reuse it instead of building the same files again; a changed file makes a new one.
 */
export function consoleBuild(): Promise<string> {
  built ??= (async () => {
    const outDir = join(CACHE, sourcesHash());
    if (existsSync(outDir)) return outDir;
    // Built beside its place and moved in whole, so a process never serves a half-written build;
    // two processes building at once both succeed, and the first move wins.
    const building = `${outDir}.${process.pid}`;
    mkdirSync(CACHE, { recursive: true });
    const { code, stdout, stderr } = await runNode([VITE, 'build', '--logLevel', 'warn'], {
      cwd: CONSOLE_PACKAGE,
      env: { PATH: process.env.PATH ?? '', TESSERA_CONSOLE_OUT_DIR: building },
    });
    if (code !== 0) throw new Error(`the console build failed (${code}):\n${stdout}${stderr}`);
    try {
      renameSync(building, outDir);
    } catch {
      rmSync(building, { recursive: true, force: true });
    }
    return outDir;
  })();
  return built;
}
