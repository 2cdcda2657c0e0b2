import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import tls from 'node:tls';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { type Browser, chromium } from 'playwright-core';
import { addDomain, setPrimaryDomain, verifyDomain } from '../../src/domain/custom-domains/index.js';
import { createOrg } from '../../src/domain/directory/orgs.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { FormBrowser, signInThroughPages } from '../sign-in/support/browser.js';
import { authorizeUrl, CALLBACK, makeClient, makeUser, PASSWORD } from '../sign-in/support/fixtures.js';
import { CHROMIUM_FLAGS } from '../support/chromium.js';
import { CHROMIUM_PATH, chromiumSkip, NGINX_PATH, nginxSkip } from '../support/environment.js';
import {
  DOMAIN,
  makeCertificates,
  opensslSkip,
  ProxyClient,
  ROOT,
  writeNginxConfig,
} from '../support/nginx-proxy.js';
import { freePort, startServer, type TestServer } from '../support/server.js';
import { spawnGroup } from '../support/tessera-process.js';
import { TxtDnsServer } from '../support/txt-dns-server.js';

/**
 * DESIGN §21, end to end: an org verified `login.acme.test` through a DNS server of the test's own
 * (TESSERA_DNS_SERVERS) and moved its issuer there; Debian's nginx terminates TLS for Tessera's
 * hosts (`*.tessera.test`, deploy/nginx.conf) and for the custom domain with that domain's own
 * certificate (deploy/nginx-custom-domain.conf), both signed by a test CA made here with openssl.
 * Chromium signs a person in on the new host (its resolver maps the test's names to 127.0.0.1 and
 * nothing else anywhere; it trusts the domain's certificate by its SPKI hash); openid-client with
 * its defaults discovers the new issuer; the old host still verifies the tokens it issued and sends
 * its pages on; a refresh token from before the move refreshes at the new issuer. SQLite: what is
 * stored is the storage suite's (domains-api.test.ts).
 */
const CUSTOM = 'login.acme.test';
const OLD_HOST = `acme.${DOMAIN}`;
const skip = nginxSkip() || opensslSkip() || chromiumSkip();
const EMAIL = 'ada@acme.test';

/** A certificate for `name` alone signed by the test CA of makeCertificates (in `dir`). */
function domainCertificate(dir: string, name: string): { cert: string; key: string } {
  const run = (args: string[]) => {
    const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  };
  writeFileSync(
    join(dir, `${name}.ext`),
    `subjectAltName=DNS:${name}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
  );
  run([
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    `/CN=${name}`,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
  ]);
  run([
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.pem`,
  ]);
  return { cert: join(dir, `${name}.pem`), key: join(dir, `${name}.key`) };
}

/** The certificate nginx serves for `servername` on `port`, as a Node TLS client trusting `ca` sees it. */
function servedCertificate(port: number, servername: string, ca: string): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, ca: readFileSync(ca) }, () => {
      const raw = socket.getPeerX509Certificate();
      socket.end();
      if (raw && socket.authorized) resolve(raw);
      else reject(new Error(`not authorized: ${socket.authorizationError}`));
    });
    socket.on('error', reject);
  });
}

describe('an org on its own domain behind nginx with that domain’s certificate', { skip }, () => {
  let dir: string;
  let server: TestServer;
  let proxy: ProxyClient;
  let browser: Browser;
  let acme: Org;
  let clientId: string;
  let machine: { id: string; secret: string };
  let tlsPort: number;
  let ca: string;
  let customCert: string;
  const dns = new TxtDnsServer();
  let stopNginx = () => {};
  let before_: { accessToken: string; refreshToken: string; idToken: string };

  const oldIssuer = () => `https://${OLD_HOST}:${tlsPort}/`;
  const newIssuer = () => `https://${CUSTOM}:${tlsPort}/`;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-domains-'));
    await dns.start();
    tlsPort = await freePort();
    server = await startServer({
      webhooks: false,
      env: {
        TESSERA_URL: `https://${DOMAIN}:${tlsPort}`,
        TESSERA_TRUST_PROXY: '1',
        TESSERA_DNS_SERVERS: dns.address,
      },
    });
    // Tessera's own hosts: the wildcard certificate of deploy/nginx.conf. The custom domain: its own.
    const wildcard = makeCertificates(dir);
    ca = wildcard.ca;
    const custom = domainCertificate(dir, CUSTOM);
    customCert = custom.cert;
    const conf = writeNginxConfig(
      dir,
      { tls: tlsPort, http: await freePort(), nodes: [server.port, server.port] },
      wildcard,
    );
    const block = readFileSync(join(ROOT, 'deploy', 'nginx-custom-domain.conf'), 'utf8')
      .replaceAll('login.acme.com', CUSTOM)
      .replace(/^\s*listen \[::\]:.*$/gm, '')
      .replace(/^server \{\n\s*listen 80;[\s\S]*?\n\}\n/m, '')
      .replace('listen 443 ssl;', `listen 127.0.0.1:${tlsPort} ssl;`)
      .replace(`/etc/ssl/tessera/domains/${CUSTOM}/fullchain.pem`, custom.cert)
      .replace(`/etc/ssl/tessera/domains/${CUSTOM}/privkey.pem`, custom.key);
    appendFileSync(join(dir, 'site.conf'), block);
    const check = spawnSync(NGINX_PATH, ['-t', '-p', dir, '-c', conf], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
    const nginx = spawnGroup(NGINX_PATH, ['-p', dir, '-c', conf], { env: { PATH: process.env.PATH ?? '' } });
    stopNginx = () => {
      if (nginx.pid && nginx.exitCode === null) process.kill(-nginx.pid, 'SIGKILL');
    };
    proxy = new ProxyClient(tlsPort, ca);
    for (let i = 0; ; i++) {
      if ((await proxy.send(DOMAIN, 'GET', '/healthz')).status === 200) break;
      assert.ok(i < 100 && nginx.exitCode === null, 'nginx did not start');
      await new Promise((r) => setTimeout(r, 100));
    }

    ({ org: acme } = await createOrg(server.deps, {
      slug: 'acme',
      ownerEmail: 'owner@acme.test',
      ownerPassword: 'owner password 1',
    }));
    clientId = (await makeClient(server.deps, acme)).clientId;
    const confidential = await makeClient(server.deps, acme, {
      name: 'API',
      kind: 'confidential',
      redirectUris: [],
    });
    machine = { id: confidential.clientId, secret: confidential.secret as string };
    await makeUser(server.deps, acme, EMAIL);

    // A session from before the move, signed in through nginx at the org's host under Tessera.
    const { url, verifier } = authorizeUrl(oldIssuer(), clientId, { scope: 'openid offline_access' });
    const callback = await signInThroughPages(new FormBrowser(proxy.fetch), url, {
      email: EMAIL,
      password: PASSWORD,
      consent: 'allow',
    });
    const exchanged = await proxy.form(OLD_HOST, '/oauth/token', {
      grant_type: 'authorization_code',
      code: new URL(callback).searchParams.get('code') ?? '',
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: clientId,
    });
    assert.equal(exchanged.status, 200, exchanged.text);
    const body = JSON.parse(exchanged.text);
    before_ = { accessToken: body.access_token, refreshToken: body.refresh_token, idToken: body.id_token };

    const spki = (file: string) =>
      createHash('sha256')
        .update(new X509Certificate(readFileSync(file)).publicKey.export({ type: 'spki', format: 'der' }))
        .digest('base64');
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [
        ...CHROMIUM_FLAGS.filter((f) => !f.startsWith('--host-resolver-rules')),
        `--host-resolver-rules=MAP ${CUSTOM} 127.0.0.1, MAP ${OLD_HOST} 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1`,
        `--ignore-certificate-errors-spki-list=${spki(custom.cert)},${spki(wildcard.cert)}`,
      ],
    });
  });

  after(async () => {
    await browser?.close();
    stopNginx();
    proxy?.agent.destroy();
    await server?.close();
    await dns.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the domain is verified once its TXT record is published, and the issuer moves there', async () => {
    const domain = await addDomain(server.deps, acme, CUSTOM, SYSTEM);
    await assert.rejects(
      verifyDomain(server.deps, acme, domain.id, SYSTEM),
      (e: { situation?: string }) => e.situation === 'domain.txt.missing',
    );
    dns.records.set(`_tessera-challenge.${CUSTOM}`, [domain.token]);
    const verified = await verifyDomain(server.deps, acme, domain.id, SYSTEM);
    assert.notEqual(verified.verifiedAt, null);
    const { org } = await setPrimaryDomain(server.deps, acme, domain.id, true, SYSTEM);
    assert.equal(org.issuerDomain, CUSTOM);
    acme = org;
  });

  test('nginx serves the custom domain with its own certificate, Tessera’s hosts with theirs', async () => {
    const served = await servedCertificate(tlsPort, CUSTOM, ca);
    assert.equal(served.subject, `CN=${CUSTOM}`);
    assert.equal(served.subjectAltName, `DNS:${CUSTOM}`);
    assert.equal(served.fingerprint256, new X509Certificate(readFileSync(customCert)).fingerprint256);
    const own = await servedCertificate(tlsPort, OLD_HOST, ca);
    assert.equal(own.subjectAltName, `DNS:${DOMAIN}, DNS:*.${DOMAIN}`);
  });

  test('openid-client with its defaults discovers the new issuer; a refresh token from before the move refreshes there', async () => {
    const config = await oidc.discovery(new URL(newIssuer()), clientId, undefined, oidc.None(), {
      // Through nginx on 127.0.0.1 with the name as SNI and Host; a form body goes as its text.
      [oidc.customFetch]: (url, init) =>
        proxy.fetch(url, {
          ...init,
          body: init.body instanceof URLSearchParams ? init.body.toString() : init.body,
        } as RequestInit),
    });
    const metadata = config.serverMetadata();
    assert.equal(metadata.issuer, newIssuer());
    assert.equal(metadata.jwks_uri, `${newIssuer()}.well-known/jwks.json`);
    assert.equal(metadata.authorization_endpoint, `${newIssuer()}oauth/authorize`);
    // The refresh token was issued under the old issuer; the new token endpoint takes it, and
    // openid-client checks the new ID token's `iss` against the new issuer.
    const refreshed = await oidc.refreshTokenGrant(config, before_.refreshToken).catch((e) => {
      throw new Error(`${e.message}: ${JSON.stringify(e.cause)}`);
    });
    assert.equal(decodeJwt(refreshed.access_token).iss, newIssuer());
    assert.equal(refreshed.claims()?.iss, newIssuer());
    assert.equal(refreshed.claims()?.sub, decodeJwt(before_.idToken).sub);
  });

  test('Chromium signs in on the new host: its pages, cookies and code are the custom domain’s', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.route(`${new URL(CALLBACK).origin}/**`, (route) =>
        route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the client' }),
      );
      const { url, verifier } = authorizeUrl(newIssuer(), clientId, { scope: 'openid' });
      const answer = await page.goto(url);
      assert.ok(answer);
      assert.equal((await answer.securityDetails())?.subjectName, CUSTOM);
      await page.waitForURL((u) => u.pathname === '/login');
      assert.equal(new URL(page.url()).host, `${CUSTOM}:${tlsPort}`);
      await page.fill('#email', EMAIL);
      await page.fill('#password', PASSWORD);
      await page.click('button[type=submit]');
      await page.waitForURL((u) => u.href.startsWith(CALLBACK) || u.pathname === '/consent');
      if (new URL(page.url()).pathname === '/consent') await page.click('button[value=allow]');
      await page.waitForURL((u) => u.href.startsWith(CALLBACK));
      const cookies = await context.cookies();
      assert.ok(cookies.length > 0);
      for (const cookie of cookies) assert.equal(cookie.domain, CUSTOM, cookie.name);
      const exchanged = await proxy.form(CUSTOM, '/oauth/token', {
        grant_type: 'authorization_code',
        code: new URL(page.url()).searchParams.get('code') ?? '',
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: clientId,
      });
      assert.equal(exchanged.status, 200, exchanged.text);
      const tokens = JSON.parse(exchanged.text);
      assert.equal(decodeJwt(tokens.access_token).iss, newIssuer());
      assert.equal(decodeJwt(tokens.id_token).iss, newIssuer());
    } finally {
      await context.close();
    }
  });

  test('the old host still verifies the tokens it issued (JWKS, introspection) and sends its pages to the new host', async () => {
    const discovery = JSON.parse(
      (await proxy.send(OLD_HOST, 'GET', '/.well-known/openid-configuration')).text,
    );
    assert.equal(discovery.issuer, oldIssuer());
    // A resource server configured with the old issuer verifies its tokens as before.
    assert.equal(discovery.jwks_uri, `${oldIssuer()}.well-known/jwks.json`);
    const jwks = JSON.parse((await proxy.send(OLD_HOST, 'GET', '/.well-known/jwks.json')).text);
    const { payload } = await jwtVerify(before_.accessToken, createLocalJWKSet(jwks), {
      issuer: oldIssuer(),
      algorithms: ['RS256'],
    });
    assert.equal(payload.iss, oldIssuer());
    const introspected = await proxy.form(OLD_HOST, '/oauth/introspect', {
      token: before_.accessToken,
      client_id: machine.id,
      client_secret: machine.secret,
    });
    assert.equal(introspected.status, 200, introspected.text);
    assert.equal(JSON.parse(introspected.text).active, true);

    // Its pages: the same path and query on the new host (a browser following it lands there).
    const { url } = authorizeUrl(oldIssuer(), clientId);
    const path = new URL(url).pathname + new URL(url).search;
    const redirected = await proxy.send(OLD_HOST, 'GET', path);
    assert.equal(redirected.status, 302);
    assert.equal(redirected.headers.location, `${newIssuer().slice(0, -1)}${path}`);
    const login = await proxy.send(OLD_HOST, 'GET', '/login?req=x');
    assert.equal(login.headers.location, `${newIssuer()}login?req=x`);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${oldIssuer()}login`);
      assert.equal(new URL(page.url()).host, `${CUSTOM}:${tlsPort}`);
    } finally {
      await context.close();
    }
  });
});
