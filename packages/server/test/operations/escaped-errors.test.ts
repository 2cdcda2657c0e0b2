import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runNode } from '../support/tessera-process.js';

/**
 * A domain error nothing waited for (a rejected promise no request awaited, a throw in a timer) must
 * never end a `serve` or `worker` process: behind a proxy one node exiting for a peer's `conflict`
 * took the whole service down. It is one line at level error; the process carries on. Anything else
 * that escapes still ends it with the fatal line (cli/lifecycle.ts `logged`). Run in a process of
 * its own: the handlers are the process's.
 */
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** A long-running command (as serve is) whose work lets `escaping` go unhandled, then exits 0 after 300 ms. */
async function run(escaping: string) {
  const script = `
    import { logged } from ${JSON.stringify(`${SRC}cli/lifecycle.ts`)};
    import { ServiceError } from ${JSON.stringify(`${SRC}domain/errors.ts`)};
    const launch = logged(1, async () => {
      ${escaping}
      setTimeout(() => process.exit(0), 300);
      return 'running';
    });
    await launch();
  `;
  return runNode(['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    env: { PATH: process.env.PATH ?? '', TESSERA_LOG_LEVEL: 'info' },
  });
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map(
      (l) =>
        JSON.parse(l) as {
          level: number;
          msg: string;
          err: { type: string; code?: string };
          escaped?: boolean;
        },
    );

test('a ServiceError rejected with nothing awaiting it: one error line, and the process keeps running', async () => {
  const { code, stdout } = await run(
    "Promise.reject(new ServiceError('org.slug.taken', 'an organization with slug \"acme\" exists'));",
  );
  assert.equal(code, 0);
  const [line, ...rest] = lines(stdout);
  assert.deepEqual(rest, []);
  assert.equal(line?.level, 50);
  assert.equal(line?.escaped, true);
  assert.deepEqual(line?.err, { type: 'ServiceError', code: 'conflict' });
  assert.equal(line?.msg, 'conflict: an organization with slug "acme" exists');
});

test('a ServiceError thrown in a timer: the same, and the process keeps running', async () => {
  const { code, stdout } = await run(
    "setTimeout(() => { throw new ServiceError('org.slug.taken', 'taken'); }, 10);",
  );
  assert.equal(code, 0);
  assert.deepEqual(
    lines(stdout).map((l) => [l.level, l.err.code, l.escaped]),
    [[50, 'conflict', true]],
  );
});

test('any other error that escapes still ends the process with one fatal line', async () => {
  const { code, stdout } = await run("Promise.reject(new TypeError('a bug'));");
  assert.equal(code, 1);
  assert.deepEqual(
    lines(stdout).map((l) => [l.level, l.err.type, l.msg]),
    [[60, 'TypeError', 'a bug']],
  );
});

test('a connection the database ended for idleness, rejected with nothing awaiting it: one error line, the process keeps running', async () => {
  // What pg raises when PostgreSQL ends a connection past idle_session_timeout (SQLSTATE 57P05).
  const { code, stdout } = await run(
    "Promise.reject(Object.assign(new Error('terminating connection due to idle-session timeout'), { code: '57P05' }));",
  );
  assert.equal(code, 0);
  assert.deepEqual(
    lines(stdout).map((l) => [l.level, l.err.code, l.escaped]),
    [[50, '57P05', true]],
  );
});
