import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { startServer, type TestServer } from '../support/server.js';
import { runNode } from '../support/tessera-process.js';

const ROOT = new URL('../../../../', import.meta.url).pathname;

/**
 * Loaded into the lint process: any connection or name look-up for a host other than loopback is
 * written to TESSERA_NETWORK_LOG and refused, so the test sees whether the linter went online.
 */
const NO_NETWORK = `
import dns from 'node:dns';
import { appendFileSync } from 'node:fs';
import net from 'node:net';

const loopback = (host) =>
  host === undefined || host === null || host === 'localhost' || host === '::1' || /^127\\./.test(host);
const refused = (what) => {
  appendFileSync(process.env.TESSERA_NETWORK_LOG, what + '\\n');
  return new Error('no network here: ' + what);
};
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options =
    typeof first === 'object' && first !== null
      ? first
      : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined };
  if (options.path === undefined && !loopback(options.host)) {
    const error = refused('connect ' + options.host + ':' + options.port);
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return connect.apply(this, args);
};
const lookup = dns.lookup;
dns.lookup = function (host, ...rest) {
  if (loopback(host)) return lookup.call(this, host, ...rest);
  const error = refused('lookup ' + host);
  const callback = rest.at(-1);
  process.nextTick(() => callback(error));
  return {};
};
const lookupPromise = dns.promises.lookup;
dns.promises.lookup = async (host, ...rest) => {
  if (loopback(host)) return lookupPromise(host, ...rest);
  throw refused('lookup ' + host);
};
`;

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: unknown[] }[];
}

/** `redocly lint --format=json` of `file` with the repository's redocly.yaml, offline. */
function redoclyLint(dir: string, file: string) {
  const networkLog = join(dir, 'network.log');
  writeFileSync(networkLog, '');
  const guard = join(dir, 'no-network.mjs');
  writeFileSync(guard, NO_NETWORK);
  return runNode(
    [
      join(ROOT, 'node_modules/.bin/redocly'),
      'lint',
      '--config',
      join(ROOT, 'redocly.yaml'),
      '--format=json',
      file,
    ],
    {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        NODE_OPTIONS: `--import=${pathToFileURL(guard).href}`,
        TESSERA_NETWORK_LOG: networkLog,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        NO_COLOR: '1',
      },
    },
  ).then((run) => ({ ...run, network: readFileSync(networkLog, 'utf8') }));
}

describe('the served OpenAPI document under Redocly lint', () => {
  let server: TestServer;
  let dir: string;

  before(async () => {
    server = await startServer({ webhooks: false });
    dir = mkdtempSync(join(tmpdir(), 'tessera-openapi-lint-'));
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the recommended rules (less three that cannot apply) find no error and no warning', async () => {
    const res = await fetch(`${server.base}/openapi.json`);
    assert.equal(res.status, 200);
    const file = join(dir, 'openapi.json');
    writeFileSync(file, await res.text());

    const lint = await redoclyLint(dir, file);
    const report = JSON.parse(lint.stdout) as LintReport;
    assert.deepEqual(
      report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} ${JSON.stringify(p.location)}`),
      [],
    );
    assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 });
    assert.equal(lint.code, 0, lint.stderr);
    assert.match(lint.stderr, /Your API description is valid/);
    // The linter stayed on this machine: no connection and no name look-up beyond loopback.
    assert.equal(lint.network, '');
  });

  test('a broken document fails the same lint: the check is not a formality', async () => {
    const doc = await (await fetch(`${server.base}/openapi.json`)).json();
    // The error body of one response points nowhere (the error schema is still used elsewhere).
    doc.paths['/organizations/{org}/events'].get.responses['400'].content['application/json'].schema = {
      $ref: '#/components/schemas/Nothing',
    };
    delete doc.paths['/healthz'].get.operationId;
    const file = join(dir, 'broken.json');
    writeFileSync(file, JSON.stringify(doc));
    const lint = await redoclyLint(dir, file);
    const report = JSON.parse(lint.stdout) as LintReport;
    assert.equal(lint.code, 1);
    assert.deepEqual(
      report.problems.map((p) => [p.severity, p.ruleId]),
      [
        ['error', 'no-unresolved-refs'],
        ['warn', 'operation-operationId'],
      ],
    );
    assert.equal(lint.network, '');
  });
});
