import { clientFlagsOf } from '../client-flags.js';
import { type Client, type Org, STANDARD_CLAIM_KEYS, type Tenant, type User } from '../types.js';
import { fieldsOf, isoTimesOf } from './snapshot-fields.js';

/** What audit entries hold of each resource: the stored fields, camelCase, never a secret. */

export const orgSnapshot = (o: Org) => ({
  ...fieldsOf(o, ['id', 'slug', 'name', 'signUp', 'signUpDomains']),
  ...isoTimesOf(o, ['createdAt']),
});

/** The user's fields an audit entry holds: the account's, then the standard claims (OIDC Core §5.1). */
const USER_FIELDS = [
  ...(['id', 'email', 'firstName', 'lastName', 'picture', 'provider', 'disabled', 'emailVerified'] as const),
  ...STANDARD_CLAIM_KEYS,
];

export const userSnapshot = (u: User) => ({
  ...fieldsOf(u, USER_FIELDS),
  ...isoTimesOf(u, ['createdAt']),
});

export const tenantSnapshot = (t: Tenant) => ({
  ...fieldsOf(t, ['id', 'name', 'logo']),
  ...isoTimesOf(t, ['createdAt']),
});

export const clientSnapshot = (c: Client) => ({
  id: c.id,
  name: c.name,
  kind: c.kind,
  redirectUris: c.redirectUris,
  postLogoutRedirectUris: c.postLogoutRedirectUris,
  grantTypes: c.grantTypes,
  firstParty: c.firstParty,
  // null: the redirect URIs' origins.
  allowedOrigins: c.allowedOrigins,
  // When the secret was issued, never the secret: a rotation shows as a change of this alone.
  secretIssuedAt: c.secretIssuedAt === null ? null : new Date(c.secretIssuedAt).toISOString(),
  // Public keys (private_key_jwt), only when registered: nothing secret.
  ...(c.jwks === undefined ? {} : { jwks: c.jwks }),
  ...(c.jwksUri === undefined ? {} : { jwksUri: c.jwksUri }),
  ...(c.requestObjectSigningAlg === undefined ? {} : { requestObjectSigningAlg: c.requestObjectSigningAlg }),
  ...(c.userinfoSignedResponseAlg === undefined
    ? {}
    : { userinfoSignedResponseAlg: c.userinfoSignedResponseAlg }),
  ...(c.backchannelLogout === undefined ? {} : { backchannelLogout: c.backchannelLogout }),
  ...(c.frontchannelLogout === undefined ? {} : { frontchannelLogout: c.frontchannelLogout }),
  ...clientFlagsOf(c),
  createdAt: new Date(c.createdAt).toISOString(),
});
