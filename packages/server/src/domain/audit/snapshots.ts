import { clientFlagsOf } from '../client-flags.js';
import type { Client, Org, Tenant, User } from '../types.js';

/** What audit entries hold of each resource: the stored fields, camelCase, never a secret. */

export const orgSnapshot = (o: Org) => ({
  id: o.id,
  slug: o.slug,
  name: o.name,
  signUp: o.signUp,
  signUpDomains: o.signUpDomains,
  createdAt: new Date(o.createdAt).toISOString(),
});

export const userSnapshot = (u: User) => ({
  id: u.id,
  email: u.email,
  firstName: u.firstName,
  lastName: u.lastName,
  picture: u.picture,
  provider: u.provider,
  disabled: u.disabled,
  emailVerified: u.emailVerified,
  middleName: u.middleName,
  nickname: u.nickname,
  preferredUsername: u.preferredUsername,
  profile: u.profile,
  website: u.website,
  gender: u.gender,
  birthdate: u.birthdate,
  zoneinfo: u.zoneinfo,
  locale: u.locale,
  phoneNumber: u.phoneNumber,
  phoneNumberVerified: u.phoneNumberVerified,
  address: u.address,
  createdAt: new Date(u.createdAt).toISOString(),
});

export const tenantSnapshot = (t: Tenant) => ({
  id: t.id,
  name: t.name,
  logo: t.logo,
  createdAt: new Date(t.createdAt).toISOString(),
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
