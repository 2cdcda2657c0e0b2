// node's test reporter (TAP, or spec on a terminal) with one addition: before the run's summary
// (`# tests N` ... `# duration_ms`, which stay last and unchanged), the time each test file took,
// slowest first, so the files that make the run long are visible. A file's time is the runner's own
// `duration_ms` for it: its process from start to exit.
import { relative } from 'node:path';
import { Readable } from 'node:stream';
import { spec, tap } from 'node:test/reporters';

const root = new URL('..', import.meta.url).pathname;

function table(files) {
  const total = files.reduce((sum, f) => sum + f.ms, 0);
  return [
    `per-file times, slowest first (${files.length} file${files.length === 1 ? '' : 's'}, ${(total / 1000).toFixed(1)} s in all):`,
    ...files
      .sort((a, b) => b.ms - a.ms)
      .map((f) => `${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.file}${f.passed ? '' : '  (failed)'}`),
  ];
}

async function* withFileTimes(source) {
  const files = [];
  let shown = false;
  for await (const event of source) {
    const { data } = event;
    if (event.type === 'test:complete' && data.nesting === 0 && data.file && data.name === data.file) {
      files.push({
        file: relative(root, data.file),
        ms: data.details.duration_ms,
        passed: data.details.passed,
      });
    }
    if (
      !shown &&
      event.type === 'test:diagnostic' &&
      data.nesting === 0 &&
      /^tests \d+$/.test(data.message)
    ) {
      shown = true;
      for (const message of table(files)) yield { type: 'test:diagnostic', data: { nesting: 0, message } };
    }
    yield event;
  }
}

export default async function* fileTimes(source) {
  if (process.stdout.isTTY) {
    yield* Readable.from(withFileTimes(source)).pipe(new spec());
  } else {
    yield* tap(withFileTimes(source));
  }
}
