// Writes the table of error codes in docs/errors.md from packages/server/src/domain/error-codes.ts,
// between its two marker comments; the rest of the page is written by hand.
// packages/server/test/operations/error-codes.test.ts fails when the page is out of date.
//
// Usage: npm run docs:errors
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const DOC = new URL('../docs/errors.md', import.meta.url);
const START = '<!-- error-codes:start (npm run docs:errors writes this table) -->';
const END = '<!-- error-codes:end -->';

/** The table's Markdown: one row per code, in the list's order. */
export function errorCodesTable(codes, statusOf) {
  const rows = Object.entries(codes).map(
    ([code, { error, means }]) =>
      `| \`${code}\` | ${statusOf(code)} | \`${error}\` | ${means.replaceAll('|', '\\|')} |`,
  );
  return ['| Code | Status | error | Situation |', '|---|---|---|---|', ...rows].join('\n');
}

/** `page` with the text between the markers replaced by `table`. */
export function withTable(page, table) {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start === -1 || end < start) throw new Error(`docs/errors.md lacks the markers ${START} … ${END}`);
  return `${page.slice(0, start + START.length)}\n\n${table}\n\n${page.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { ERROR_CODES, ServiceError } = await import('../packages/server/src/domain/errors.ts');
  const table = errorCodesTable(ERROR_CODES, (code) => new ServiceError(code).status);
  writeFileSync(DOC, withTable(readFileSync(DOC, 'utf8'), table));
}
