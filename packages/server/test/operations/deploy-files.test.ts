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

// Issue 48: the container image. Its RUN steps are the production install's (one script, run for real
// by production-install.test.ts, which also runs the HEALTHCHECK command); no image is built here.
test('the Dockerfile installs with scripts/install-production.sh and runs unprivileged, with a volume for its data and a health check on /readyz', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  assert.equal(stages.length, 2, 'an install stage and the image');
  const [build, image] = stages as [string, string];
  // The install stage runs the script as the image's unprivileged user, and nothing else.
  assert.deepEqual(
    [...build.matchAll(/^RUN (.*)$/gm)].map((m) => m[1]),
    ['scripts/install-production.sh'],
  );
  assert.match(build, /^USER node$/m);
  // The image: the install owned by root, run as `node`, the data dir a volume, nothing else written.
  assert.match(image, /^COPY --from=install --chown=root:root \/opt\/tessera \/opt\/tessera$/m);
  const users = [...image.matchAll(/^USER (\S+)$/gm)].map((m) => m[1]);
  assert.equal(users.at(-1), 'node');
  assert.match(image, /\bTESSERA_DATA_DIR=\/var\/lib\/tessera\b/);
  assert.match(image, /^VOLUME \["\/var\/lib\/tessera"\]$/m);
  assert.match(image, /\bNODE_ENV=production\b/);
  assert.match(image, /^HEALTHCHECK .*\/readyz/m);
  assert.match(image, /^ENTRYPOINT \["node", "\/opt\/tessera\/packages\/server\/bin\/tessera\.mjs"\]$/m);
  assert.match(image, /^CMD \["serve"\]$/m);
  // The build context leaves out this checkout's installs, builds and secrets.
  const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
  for (const entry of ['**/node_modules', '**/dist', '.git', '**/.env', '**/.tessera'])
    assert.ok(ignored.includes(entry), entry);
});
