// node's test reporter (TAP, or spec on a terminal) with one addition: before the run's summary
// (`# tests N` ... `# duration_ms`, which stay last and unchanged), the time each test process took,
// slowest first, so the files that make the run long are visible. A process's time is the runner's own
// `duration_ms` for it: from start to exit. A group of files (scripts/test.mjs) is named with its files,
// and shown with the CPU seconds it used (its process and the children it started, which scripts/test.mjs
// has it write at exit): on a busy machine wall time grows with the load, CPU time much less.
// It counts only children the process waited for, and their waited children: not Chromium's renderer and
// GPU processes, never reaped by the test process (three console files printed 29 s; a cgroup around the
// run counted 75 s), nor the PostgreSQL backends its tests used.
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, relative } from 'node:path';
import { Readable } from 'node:stream';
import { spec, tap } from 'node:test/reporters';

const root = new URL('..', import.meta.url).pathname;

/** A test process's name: the test file, or a group's name and the files it ran. */
function nameOf(file) {
  if (!file.includes('/tessera-test-groups/')) return relative(root, file);
  const members = readFileSync(file, 'utf8')
    .split('\n')[0]
    .replace(/^\/\/ /, '')
    .split(', ');
  // The entry's name less its place in the run (scripts/test.mjs): `03-server-console-2` → `server-console-2`.
  return `${basename(file, '.test.mjs').replace(/^\d+-/, '')}: ${members.map((m) => basename(m, '.test.ts')).join(', ')}`;
}

/** The CPU seconds a group's process wrote at exit (scripts/test.mjs), or null. */
function cpuOf(file) {
  const path = `${file}.cpu`;
  return existsSync(path) ? Number(readFileSync(path, 'utf8')) : null;
}

function table(files) {
  const total = files.reduce((sum, f) => sum + f.ms, 0);
  const cpu = files.reduce((sum, f) => sum + (f.cpu ?? 0), 0);
  return [
    `per-process times, slowest first (${files.length} process${files.length === 1 ? '' : 'es'}, ${(total / 1000).toFixed(1)} s in all, ${cpu.toFixed(1)} s of CPU; load average now ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}):`,
    ...files
      .sort((a, b) => b.ms - a.ms)
      .map(
        (f) =>
          `${(f.ms / 1000).toFixed(1).padStart(7)} s ${f.cpu === null ? '' : `(cpu ${f.cpu.toFixed(1).padStart(6)} s)`}  ${f.file}${f.passed ? '' : '  (failed)'}`,
      ),
  ];
}

async function* withFileTimes(source) {
  const files = [];
  let shown = false;
  for await (const event of source) {
    const { data } = event;
    if (event.type === 'test:complete' && data.nesting === 0 && data.file && data.name === data.file) {
      files.push({
        file: nameOf(data.file),
        cpu: cpuOf(data.file),
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
