import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSdk, type SdkOptions } from '@tessera/sdk';

const OK: SdkOptions = {
  api: 'http://localhost:4000',
  issuer: 'http://acme.localhost:4000/',
  clientId: 'cli_web',
};

function refuses(options: unknown, message: string) {
  assert.throws(() => createSdk(options as SdkOptions), { name: 'TypeError', message });
}

describe('createSdk options', () => {
  it('exposes every member of the spec table', () => {
    const sdk = createSdk(OK);
    assert.equal(typeof sdk.jwksUri, 'string');
    for (const fn of [
      sdk.verify,
      sdk.token.authorizationCode,
      sdk.token.refresh,
      sdk.token.switchTenant,
      sdk.token.clientCredentials,
      sdk.revoke,
      sdk.users.me,
      sdk.tenants.list,
      sdk.tenants.create,
      sdk.tenants.update,
      sdk.tenants.delete,
      sdk.organizations.get,
      sdk.profile.session,
      sdk.authorizationUrl,
    ]) {
      assert.equal(typeof fn, 'function');
    }
    assert.ok(Object.isFrozen(sdk) && Object.isFrozen(sdk.token) && Object.isFrozen(sdk.tenants));
  });

  it('derives jwksUri from api, dropping a trailing slash rather than doubling it', () => {
    assert.equal(createSdk(OK).jwksUri, 'http://localhost:4000/.well-known/jwks.json');
    assert.equal(
      createSdk({ ...OK, api: 'http://localhost:4000/' }).jwksUri,
      'http://localhost:4000/.well-known/jwks.json',
    );
    assert.equal(
      createSdk({ ...OK, api: 'https://example.com/auth' }).jwksUri,
      'https://example.com/auth/.well-known/jwks.json',
    );
  });

  it('refuses a bad api', () => {
    const message = 'createSdk: "api" must be an absolute http(s) URL without credentials, query or fragment';
    for (const api of [
      undefined,
      '',
      'localhost:4000',
      'ftp://x.example',
      'http://u:p@x.example',
      'http://x/?a=1',
    ]) {
      refuses({ ...OK, api }, message);
    }
  });

  it('refuses an issuer that is not an http(s) URL ending in a slash', () => {
    for (const issuer of [undefined, 'http://acme.localhost:4000', 'acme/']) {
      refuses({ ...OK, issuer }, 'createSdk: "issuer" must be an absolute http(s) URL ending in "/"');
    }
  });

  it('refuses a missing clientId and a bad switchTenantGrant', () => {
    refuses({ ...OK, clientId: '' }, 'createSdk: "clientId" must be a non-empty string');
    refuses(
      { ...OK, switchTenantGrant: 'a b' },
      'createSdk: "switchTenantGrant" must be a non-empty string without spaces',
    );
    refuses(null, 'createSdk: "options" must be an object');
  });

  it('allows hostOverride only against a loopback api', () => {
    const loopback = [
      'http://localhost:4000',
      'http://127.0.0.1:4000',
      'http://127.0.0.2:4000',
      'http://[::1]:4000',
      'http://acme.localhost:4000',
    ];
    for (const api of loopback) {
      assert.doesNotThrow(() => createSdk({ ...OK, api, hostOverride: 'acme.localhost:4000' }));
    }
    for (const api of ['https://auth.example.com', 'http://10.0.0.1:4000', 'http://localhost.example.com']) {
      refuses(
        { ...OK, api, hostOverride: 'acme.localhost:4000' },
        'createSdk: "hostOverride" is for development only and needs "api" on loopback (localhost, *.localhost, 127.0.0.0/8 or [::1])',
      );
    }
    refuses(
      { ...OK, hostOverride: 'acme.localhost:4000/x?y' },
      'createSdk: "hostOverride" must be a host name with an optional port',
    );
  });
});
