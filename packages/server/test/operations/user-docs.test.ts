import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The docs a user of Tessera reads (the README, docs/ but for the contributors' architecture and
 * decisions, the examples' READMEs, the published packages' READMEs, the server's docs) speak of behaviour, not of the
 * design notes (a file outside the repository) or of where the code and its tests live: a reader
 * cannot open `DESIGN §15`, and a source path goes stale at the next move. The console's README is
 * left out: the console is not a package anyone installs, and its README is its contributors' map.
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CONTRIBUTORS = new Set(['architecture.md', 'decisions.md']);
const files = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md') && !CONTRIBUTORS.has(f))
    .map((f) => join('docs', f)),
  join('examples', 'README.md'),
  ...readdirSync(join(ROOT, 'examples'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join('examples', entry.name, 'README.md')),
  join('packages', 'sdk', 'README.md'),
  join('packages', 'koa', 'README.md'),
  ...readdirSync(join(ROOT, 'packages', 'server', 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('packages', 'server', 'docs', f)),
];

const RULES: [string, RegExp][] = [
  ['a DESIGN reference', /DESIGN\s*§/],
  ['a source or test path', /packages\/[a-z]+\/(src|test)\//],
  ['a test file', /[\w-]+\.test\.ts\b/],
  ['a source file', /`[\w./-]*\b(src|test|domain|http|delivery|storage|support)\/[\w./-]+\.(ts|tsx|mjs)`/],
  ['a TypeScript file', /`[\w-]+\.tsx?`/],
];

test('user docs hold no DESIGN reference and no source or test path', () => {
  const found: string[] = [];
  for (const file of files) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const [what, rule] of RULES) {
        if (rule.test(line)) found.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(found, []);
  assert.ok(files.length > 15, 'the docs were found');
});
