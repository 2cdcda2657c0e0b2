import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { addDomain, setPrimaryDomain, verifyDomain } from '../../src/domain/custom-domains/index.js';
import { SYSTEM } from '../../src/domain/types.js';
import { tokenRequest } from '../sign-in/support/fixtures.js';
import { orgWithMachineClient } from '../support/fixtures.js';
import { resolveOnLoopback } from '../support/localhost-dns.js';
import { startServer, type TestServer } from '../support/server.js';
import { TxtDnsServer } from '../support/txt-dns-server.js';

/**
 * Path issuers (TESSERA_ISSUER_STYLE=path) and an org's own domain (DESIGN §21): the org's issuer
 * leaves `/o/<slug>/` on the base host for the root of its custom domain; the prefix's discovery
 * (both forms) and key set serve the old issuer, its pages redirect without the prefix, and a
 * custom host never takes a prefix.
 */
describe('custom domains under path issuers', () => {
  let server: TestServer;
  const dns = new TxtDnsServer();
  const NAME = 'login.paths.test';
  resolveOnLoopback(NAME);

  before(async () => {
    await dns.start();
    server = await startServer({
      webhooks: false,
      env: { TESSERA_ISSUER_STYLE: 'path', TESSERA_DNS_SERVERS: dns.address },
    });
  });
  after(async () => {
    await server.close();
    await dns.close();
  });

  test('the issuer moves from /o/acme/ to the custom domain’s root', async () => {
    const { org, clientId, clientSecret } = await orgWithMachineClient(server.deps, 'acme');
    const oldIssuer = server.issuer('acme');
    assert.equal(oldIssuer, `${server.base}/o/acme/`);
    const domain = await addDomain(server.deps, org, NAME, SYSTEM);
    dns.records.set(`_tessera-challenge.${NAME}`, [domain.token]);
    await verifyDomain(server.deps, org, domain.id, SYSTEM);
    await setPrimaryDomain(server.deps, org, domain.id, true, SYSTEM);
    const newIssuer = `http://${NAME}:${server.port}/`;

    const discovery = await (await fetch(`${newIssuer}.well-known/openid-configuration`)).json();
    assert.equal(discovery.issuer, newIssuer);
    const minted = await tokenRequest(newIssuer, {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    assert.equal(decodeJwt(minted.body.access_token as string).iss, newIssuer);

    for (const path of [
      '/o/acme/.well-known/openid-configuration',
      '/.well-known/openid-configuration/o/acme',
      '/.well-known/oauth-authorization-server/o/acme',
    ]) {
      const old = await fetch(`${server.base}${path}`);
      assert.equal(old.status, 200, path);
      assert.equal((await old.json()).issuer, oldIssuer, path);
    }
    const login = await fetch(`${server.base}/o/acme/login?req=x`, { redirect: 'manual' });
    assert.equal(login.status, 302);
    assert.equal(login.headers.get('location'), `${newIssuer}login?req=x`);
    // A prefix on the custom host names no org; the console's own routes stay where they are.
    assert.equal((await fetch(`${newIssuer}o/acme/.well-known/openid-configuration`)).status, 404);
    assert.equal((await fetch(`${server.base}/.well-known/openid-configuration`)).status, 200);
  });
});
