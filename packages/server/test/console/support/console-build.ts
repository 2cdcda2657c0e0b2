import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNode } from '../../support/tessera-process.js';

const CONSOLE_PACKAGE = fileURLToPath(new URL('../../../../console/', import.meta.url));
const VITE = fileURLToPath(new URL('../../../../../node_modules/vite/bin/vite.js', import.meta.url));

let built: Promise<string> | undefined;

/**
 * The console built from its sources as they are now (not a dist/ an earlier build left), into a
 * directory of this test process, once per process: what the server then serves at /console/.
 */
export function consoleBuild(): Promise<string> {
  built ??= (async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'tessera-console-'));
    const { code, stdout, stderr } = await runNode([VITE, 'build', '--logLevel', 'warn'], {
      cwd: CONSOLE_PACKAGE,
      env: { PATH: process.env.PATH ?? '', TESSERA_CONSOLE_OUT_DIR: outDir },
    });
    if (code !== 0) throw new Error(`the console build failed (${code}):\n${stdout}${stderr}`);
    return outDir;
  })();
  return built;
}
