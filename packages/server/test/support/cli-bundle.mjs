// Builds the `tessera` CLI from its TypeScript sources (packages/server/src) into one ESM bundle for
// node, and prints the path of its entry. Tests run `node <entry>` instead of loading every source
// file through tsx in each process they start, which costs seconds of CPU per launch. It is the same
// CLI from the same sources: esbuild does what tsx does (tsx transforms with esbuild too), packages
// stay external (node_modules load natively, as in production), and each module keeps its own
// import.meta.url (the path of its source file), so files found beside the sources are found.
//
// The bundle is kept under node_modules/.cache/tessera-cli/<hash of the sources>/, so every test file
// of a run shares one build and a changed source gets a new one. It is written to a temporary
// directory and renamed into place, so test files building it at the same time never see half of one.
// Building one removes those not used for a day (older sources).
// Usage: node cli-bundle.mjs   (prints the entry's path; the session's, session.mjs, is beside it)
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, version as esbuildVersion } from 'esbuild';

const SERVER = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(SERVER, 'src');
const CACHE = fileURLToPath(new URL('../../../../node_modules/.cache/tessera-cli/', import.meta.url));
/** Besides the sources, what decides how they are compiled. */
const INPUTS = [
  fileURLToPath(import.meta.url),
  fileURLToPath(new URL('./cli-session.ts', import.meta.url)),
  join(SERVER, 'tsconfig.json'),
  fileURLToPath(new URL('../../../../tsconfig.base.json', import.meta.url)),
];

function files(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

function sourceHash() {
  const hash = createHash('sha256').update(esbuildVersion);
  for (const file of [...files(SRC), ...INPUTS.filter((f) => existsSync(f))]) {
    hash.update(`\0${relative(SERVER, file)}\0`).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 20);
}

/** Each source file's `import.meta.url` is its own URL, as when node runs it (through tsx or dist/). */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

const dir = join(CACHE, sourceHash());
const entry = join(dir, 'main.mjs');
if (!existsSync(entry)) {
  mkdirSync(CACHE, { recursive: true });
  const temporary = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const built = build({
    // And the tests' session that runs many commands in one process (cli-session.ts).
    entryPoints: {
      main: join(SRC, 'cli/main.ts'),
      session: fileURLToPath(new URL('./cli-session.ts', import.meta.url)),
    },
    bundle: true,
    splitting: true, // the CLI imports each command's module only when it runs that command
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    conditions: ['tessera-source'],
    outdir: temporary,
    outExtension: { '.js': '.mjs' },
    plugins: [ownImportMetaUrl],
    logLevel: 'error',
  });
  // A failed build leaves nothing behind.
  await built.catch((error) => {
    rmSync(temporary, { recursive: true, force: true });
    throw error;
  });
  try {
    renameSync(temporary, dir);
  } catch (error) {
    // Another test file built the same sources first: theirs is the same bundle.
    rmSync(temporary, { recursive: true, force: true });
    if (!existsSync(entry)) throw error;
  }
  const dayAgo = Date.now() - 86_400_000;
  for (const name of readdirSync(CACHE)) {
    const old = join(CACHE, name);
    if (old !== dir && (statSync(old, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) < dayAgo)
      rmSync(old, { recursive: true, force: true });
  }
} else {
  const now = new Date();
  utimesSync(dir, now, now);
}
process.stdout.write(entry);
