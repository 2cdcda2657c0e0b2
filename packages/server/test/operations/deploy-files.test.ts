import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { KEEP_ALIVE_TIMEOUT_MS } from '../../src/http/app.js';

// DESIGN §18: the files of deploy/ that docs/deploying.md tells an operator to copy. The unit is
// checked by systemd itself where it is installed; nginx's file is run for real by
// test/resilience/proxy-failover.test.ts.

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const unit = readFileSync(join(ROOT, 'deploy', 'tessera.service'), 'utf8');

test('deploy/tessera.service passes systemd-analyze verify', (t) => {
  if (spawnSync('systemd-analyze', ['--version']).status !== 0) {
    t.diagnostic('SKIPPED: systemd-analyze is not installed');
    return t.skip('SKIPPED: systemd-analyze is not installed');
  }
  const dir = mkdtempSync(join(tmpdir(), 'tessera-unit-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(join(ROOT, 'deploy', 'tessera.service'), join(dir, 'tessera.service'));
  const verify = spawnSync('systemd-analyze', ['verify', join(dir, 'tessera.service')], { encoding: 'utf8' });
  // Where /usr/bin/node is absent systemd says so; that is this machine, not the unit.
  const problems = verify.stderr
    .split('\n')
    .filter(
      (l) =>
        l.trim() !== '' && !/\/usr\/bin\/node/.test(l) && !/Failed to open \/etc\/systemd\/system/.test(l),
    );
  assert.deepEqual(problems, []);
  if (existsSync('/usr/bin/node')) assert.equal(verify.status, 0, verify.stderr);
});

test('the unit runs the compiled CLI with plain node, as an unprivileged user, stopped by SIGTERM', () => {
  assert.match(
    unit,
    /^ExecStart=\/usr\/bin\/node \/opt\/tessera\/current\/packages\/server\/bin\/tessera\.mjs serve$/m,
  );
  assert.match(unit, /^User=tessera$/m);
  assert.match(unit, /^EnvironmentFile=\/etc\/tessera\/tessera\.env$/m);
  assert.match(unit, /^KillSignal=SIGTERM$/m);
  assert.match(unit, /^NoNewPrivileges=yes$/m);
  assert.match(unit, /^ProtectSystem=strict$/m);
});

test("nginx's keep-alive to the nodes ends before a node's: the proxy closes idle connections first", () => {
  const conf = readFileSync(join(ROOT, 'deploy', 'nginx.conf'), 'utf8');
  const idle = /^\s*keepalive_timeout (\d+)s;/m.exec(conf);
  assert.ok(idle, 'deploy/nginx.conf sets keepalive_timeout in its upstream block');
  assert.ok(Number(idle[1]) * 1000 < KEEP_ALIVE_TIMEOUT_MS);
  assert.match(conf, /^\s*proxy_http_version 1\.1;$/m);
  assert.match(conf, /^\s*proxy_set_header Connection "";$/m);
  assert.match(conf, /^\s*proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;$/m);
  assert.match(conf, /^\s*server_name id\.example\.com \*\.id\.example\.com;$/m);
});
