import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { cliEnv, cliOrgWithMachineClient, tessera } from './support/cli.js';
import { databaseSkip, httpSuite } from './support/databases.js';
import { startServer, type TestServer } from './support/server.js';

/** Real clients against a running server: openid-client for discovery and tokens, jose for verification. */
for (const database of httpSuite()) {
  describe(`openid-client and jose against Tessera on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let clientId: string;
    let clientSecret: string;

    before(async () => {
      if (skip) return;
      server = await startServer({ database });
      ({ clientId, clientSecret } = await cliOrgWithMachineClient(cliEnv(server), 'acme'));
    });
    after(async () => {
      if (!skip) await server.close();
    });

    async function machineToken() {
      const config = await oidc.discovery(
        new URL(server.issuer('acme')),
        clientId,
        undefined,
        oidc.ClientSecretPost(clientSecret),
        { execute: [oidc.allowInsecureRequests] },
      );
      return oidc.clientCredentialsGrant(config);
    }

    test('openid-client discovers the org issuer and gets a client_credentials token', { skip }, async () => {
      const config = await oidc.discovery(
        new URL(server.issuer('acme')),
        clientId,
        undefined,
        oidc.ClientSecretPost(clientSecret),
        { execute: [oidc.allowInsecureRequests] },
      );
      const metadata = config.serverMetadata();
      assert.equal(metadata.issuer, server.issuer('acme'));
      assert.equal(metadata.jwks_uri, `${server.issuer('acme')}.well-known/jwks.json`);
      assert.equal(metadata.registration_endpoint, undefined, 'registration is the console issuer only');
      const tokens = await oidc.clientCredentialsGrant(config);
      assert.equal(tokens.token_type, 'bearer');
      assert.equal(tokens.expires_in, 900);
      assert.equal(typeof tokens.access_token, 'string');
    });

    test('jose verifies it with issuer and audience from the remote key set', { skip }, async () => {
      const tokens = await machineToken();
      const jwks = createRemoteJWKSet(new URL(`${server.issuer('acme')}.well-known/jwks.json`));
      const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
        issuer: server.issuer('acme'),
        audience: clientId,
        algorithms: ['RS256'],
        typ: 'at+jwt',
      });
      assert.equal(payload.typ, 'client');
      assert.equal(payload.sub, clientId);
      assert.equal(typeof protectedHeader.kid, 'string');
      await assert.rejects(
        jwtVerify(tokens.access_token, jwks, { issuer: server.issuer('acme').slice(0, -1) }),
      );
    });

    test('after `tessera keys rotate` new tokens carry the new kid and older ones still verify', {
      skip,
    }, async () => {
      const jwks = createRemoteJWKSet(new URL(`${server.issuer('acme')}.well-known/jwks.json`));
      const before = (await machineToken()).access_token;
      const oldKid = decodeProtectedHeader(before).kid;
      await jwtVerify(before, jwks, { issuer: server.issuer('acme'), audience: clientId });

      const rotated = await tessera(['keys', 'rotate', '--org', 'acme'], cliEnv(server));
      assert.equal(rotated.code, 0, rotated.stderr);
      const kid = rotated.json?.kid as string;
      assert.notEqual(kid, oldKid);

      const afterToken = (await machineToken()).access_token;
      assert.equal(decodeProtectedHeader(afterToken).kid, kid);
      // The same cached key set verifies both: the new key was published before it signed anything.
      await jwtVerify(afterToken, jwks, { issuer: server.issuer('acme'), audience: clientId });
      await jwtVerify(before, jwks, { issuer: server.issuer('acme'), audience: clientId });
      const fresh = createRemoteJWKSet(new URL(`${server.issuer('acme')}.well-known/jwks.json`));
      await jwtVerify(before, fresh, { issuer: server.issuer('acme'), audience: clientId });
    });

    test('discovery documents: the RFC 8414 path serves the OIDC one; the console has its own issuer', {
      skip,
    }, async () => {
      const a = await (await fetch(`${server.issuer('acme')}.well-known/openid-configuration`)).json();
      const b = await (await fetch(`${server.issuer('acme')}.well-known/oauth-authorization-server`)).json();
      assert.deepEqual(a, b);
      const consoleDoc = (await (
        await fetch(`${server.base}/.well-known/openid-configuration`)
      ).json()) as Record<string, unknown>;
      assert.equal(consoleDoc.issuer, `${server.base}/`);
      assert.deepEqual(consoleDoc.token_endpoint_auth_methods_supported, [
        'client_secret_basic',
        'client_secret_post',
        'private_key_jwt',
        'none',
      ]);
      assert.deepEqual(consoleDoc.code_challenge_methods_supported, ['S256']);
    });
  });
}
