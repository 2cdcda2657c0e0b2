import { ID_JAG_TYP } from '../../crypto/id-token.js';
import { sha256 } from '../../crypto/random.js';
import { checkJwt, type JWTPayload, unverifiedClaims, unverifiedHeader } from '../../crypto/verify-jwt.js';
import { findFederatedUserId, listConnections } from '../../storage/repos/connections.js';
import { purgeProofJtis, recordProofJti } from '../../storage/repos/dpop-proof-jtis.js';
import { findUserById } from '../../storage/repos/users.js';
import { CLIENT_JWS_ALGORITHMS } from '../client-jws-algorithms.js';
import { clock } from '../clock.js';
import { scopeList } from '../directory/console-scopes.js';
import { fail } from '../errors.js';
import { UpstreamUnusable } from '../federation/oidc-upstreams.js';
import { issuerOf } from '../issuers.js';
import { purgeAtMostEveryMinute } from '../purge-schedule.js';
import { requestedResources } from '../resources/index.js';
import { grantForUser, storedGrant } from '../resources/resource-grants.js';
import { sessionAudience } from '../resources/resource-tokens.js';
import { openSession } from '../sessions/sessions.js';
import type { TokenSet } from '../tokens/index.js';
import { tokenSet } from '../tokens/user-tokens.js';
import { ACR_FEDERATED, AMR_FEDERATED } from '../tokens-policy.js';
import type { Client, Connection, Org, User } from '../types.js';
import type { EnterpriseAccessDeps } from './deps.js';
import { requireConfidentialClient } from './id-jag-issuing.js';

/** RFC 7523 §2.1: the JWT bearer authorization grant's `grant_type`. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** draft-ietf-oauth-identity-assertion-authz-grant §7.2: what `authorization_grant_profiles_supported` names. */
export const ID_JAG_GRANT_PROFILE = 'urn:ietf:params:oauth:grant-profile:id-jag';

/**
 * The signature algorithms an ID-JAG may be signed with: asymmetric ones only, those a client's
 * own keys may sign with and Ed25519. An HMAC (`HS256`, keyed with whatever a public key set
 * holds) and `none` are never taken.
 */
export const ID_JAG_ALGORITHMS = [...CLIENT_JWS_ALGORITHMS, 'Ed25519'];

/** An ID-JAG issued further in the future than this (a clock ahead) is refused: jose checks `iat` no more. */
const IAT_LEEWAY_S = 60;

/** An ID-JAG that says it lives longer than this is refused: its `jti` is kept until it expires. */
const MAX_LIFETIME_S = 60 * 60;

type OidcConnection = Extract<Connection, { type: 'oidc' }>;

/** The org's OIDC connection trusted for ID-JAGs whose issuer is `iss`, exactly; else `invalid_grant`. */
async function trustingConnection(
  deps: EnterpriseAccessDeps,
  org: Org,
  iss: unknown,
): Promise<OidcConnection> {
  const found =
    typeof iss === 'string' && iss !== issuerOf(deps.config, org)
      ? (await listConnections(deps.store, org.id)).find(
          (c): c is OidcConnection =>
            c.type === 'oidc' && c.oidc.acceptIdJag === true && c.oidc.issuer === iss,
        )
      : undefined;
  return (
    found ??
    fail(
      'token.id_jag.untrusted_issuer',
      'the ID-JAG was not issued by a provider this organization trusts for it',
    )
  );
}

/** The key set the connection's provider publishes (its discovery's `jwks_uri`), following a new `kid`. */
async function providerKeys(deps: EnterpriseAccessDeps, c: OidcConnection, kid: unknown) {
  const upstreams = deps.upstreams;
  try {
    if (upstreams === undefined) throw new UpstreamUnusable('unreachable', 'no upstreams in this process');
    const jwksUri = (await upstreams.discovery(c)).jwks_uri;
    if (typeof jwksUri !== 'string')
      throw new UpstreamUnusable('unreachable', 'the provider names no jwks_uri');
    if (typeof kid === 'string') await upstreams.followKey(c, jwksUri, kid);
    return (await upstreams.keySet(c, jwksUri, false)) as { keys: never[] };
  } catch (error) {
    if (!(error instanceof UpstreamUnusable)) throw error;
    return fail('token.id_jag.issuer_unusable', "the keys of the ID-JAG's issuer cannot be read right now");
  }
}

/**
 * The claims of `assertion` when it is an ID-JAG the connection's provider signed for this issuer
 * (draft §4.4.1, RFC 7523 §3): `typ` oauth-id-jag+jwt, an asymmetric signature by a key of the
 * provider's set, `iss` the provider, `aud` this issuer alone, `exp` not past, `iat` not
 * more than a minute ahead, every required claim present, and a lifetime of at most an hour.
 */
async function verifiedIdJag(deps: EnterpriseAccessDeps, org: Org, assertion: string) {
  const header = unverifiedHeader(assertion);
  const unverified = unverifiedClaims(assertion);
  if (
    header === null ||
    unverified === null ||
    header.typ !== ID_JAG_TYP ||
    !ID_JAG_ALGORITHMS.includes(header.alg as string)
  )
    fail(
      'token.id_jag.malformed',
      'assertion is not an ID-JAG (typ oauth-id-jag+jwt, signed with a public key)',
    );
  const connection = await trustingConnection(deps, org, unverified?.iss);
  const issuer = issuerOf(deps.config, org);
  const now = clock.now();
  const outcome = await checkJwt(assertion, await providerKeys(deps, connection, header?.kid), {
    issuer: connection.oidc.issuer,
    typ: ID_JAG_TYP,
    audience: [issuer],
    algorithms: ID_JAG_ALGORITHMS,
    requiredClaims: ['iss', 'sub', 'aud', 'client_id', 'jti', 'exp', 'iat'],
    now,
  });
  if (!outcome.ok) {
    if (outcome.expired) fail('token.id_jag.expired', 'the ID-JAG has expired');
    if (outcome.claim === 'aud') fail('token.id_jag.audience', 'the ID-JAG is not for this issuer');
    return fail('token.id_jag.invalid', 'the ID-JAG does not verify');
  }
  const claims = outcome.payload;
  // §4.4.1: an array `aud` must hold exactly one element, this issuer.
  if (Array.isArray(claims.aud) && claims.aud.length !== 1)
    fail('token.id_jag.audience', 'the ID-JAG is not for this issuer');
  const { sub, jti, client_id: clientId, exp, iat } = claims as JWTPayload & Record<string, unknown>;
  if (
    typeof sub !== 'string' ||
    typeof jti !== 'string' ||
    typeof clientId !== 'string' ||
    typeof exp !== 'number' ||
    typeof iat !== 'number' ||
    exp - iat > MAX_LIFETIME_S ||
    iat > now / 1000 + IAT_LEEWAY_S
  )
    fail('token.id_jag.invalid', 'the ID-JAG does not verify');
  return {
    connection,
    claims: claims as JWTPayload & { sub: string; jti: string; client_id: string; exp: number },
  };
}

/** The enabled user of the org linked to `subject` through the connection (never made here); else `invalid_grant`. */
async function linkedUser(
  deps: EnterpriseAccessDeps,
  org: Org,
  c: OidcConnection,
  subject: string,
): Promise<User> {
  const userId = await findFederatedUserId(deps.store, c.id, subject);
  const user = userId === null ? null : await findUserById(deps.store, userId);
  if (!user || user.orgId !== org.id || user.disabled)
    return fail(
      'token.id_jag.unlinked_subject',
      'the ID-JAG names no user of this organization linked through its issuer',
    );
  return user;
}

/** The one resource an ID-JAG names (`resource`: a string, or an array of one); else `invalid_target`. */
function resourceOf(claims: JWTPayload): string {
  const value =
    Array.isArray(claims.resource) && claims.resource.length === 1 ? claims.resource[0] : claims.resource;
  return typeof value === 'string'
    ? value
    : fail('token.id_jag.no_resource', 'the ID-JAG must name exactly one resource of this organization');
}

/**
 * The `jwt-bearer` grant with an ID-JAG (RFC 7523 §2.1, draft §4.4, DESIGN §20): the org is the
 * MCP server's authorization server. The assertion must be an ID-JAG signed by the provider of one of
 * the org's OIDC connections trusted for it (`accept_id_jag`), for this issuer, naming the
 * authenticated client (an org's own confidential client), unexpired and never presented before
 * (its `jti` is recorded, on every node, until it expires: checked last, so a refused one is not
 * spent). Its `sub` must be linked to a user of the org through that connection — no account is
 * made. The answer is an access token for the ID-JAG's `resource` (registered at the org, RFC 8707),
 * with the scopes it grants that the user's roles allow, and no refresh token; no consent screen.
 * `dpopJkt`: the token is bound to that key (RFC 9449), as on the other grants.
 */
export async function redeemIdJag(
  deps: EnterpriseAccessDeps,
  org: Org,
  client: Client,
  assertion: string,
  dpopJkt: string | null,
): Promise<TokenSet> {
  requireConfidentialClient(client);
  const { connection, claims } = await verifiedIdJag(deps, org, assertion);
  if (claims.client_id !== client.id)
    fail('token.id_jag.client_mismatch', 'the ID-JAG was issued for another client');
  const user = await linkedUser(deps, org, connection, claims.sub);
  const [resource] = await requestedResources(deps, org, [resourceOf(claims)]);
  const asked = scopeList(typeof claims.scope === 'string' ? claims.scope : '');
  const now = clock.now();
  const signer = await deps.keyRing.signer(org.id);
  // Keyed by the store, as DPoP's purge is: one delete a minute per process, not one per grant.
  await purgeAtMostEveryMinute(deps.store, 'dpop_proof_jtis', now, (db) => purgeProofJtis(db, now));
  const opened = await deps.unitOfWork.run(async (tx) => {
    const [granted] = await grantForUser(
      tx,
      org,
      user.id,
      resource ? [resource.identifier] : [],
      asked.join(' '),
    );
    if (!granted)
      return fail(
        'token.id_jag.no_resource',
        'the ID-JAG must name exactly one resource of this organization',
      );
    if (asked.length > 0 && granted.scopes.length === 0)
      fail('token.id_jag.roles', "the user's roles allow none of the scopes this ID-JAG grants");
    // One table with DPoP proofs' jtis (DESIGN §20): an issuer's jti, kept until the ID-JAG expires.
    const fresh = await recordProofJti(
      tx,
      sha256(`id-jag\n${connection.oidc.issuer}\n${claims.jti}`),
      claims.exp * 1000,
    );
    if (!fresh) fail('token.id_jag.replayed', 'the ID-JAG was already used');
    const session = await openSession(
      tx,
      org,
      {
        userId: user.id,
        clientId: client.id,
        amr: [AMR_FEDERATED],
        acr: ACR_FEDERATED,
        scope: '',
        resources: storedGrant([granted]),
        // The session ends with its one access token: an ID-JAG gives no refresh token (draft §4.4.3).
        notAfter: now + granted.resource.accessTokenTtl * 1000,
        authTime: typeof claims.auth_time === 'number' ? claims.auth_time * 1000 : now,
      },
      now,
    );
    return { session, audience: await sessionAudience(tx, org, session, granted.resource.identifier) };
  });
  return tokenSet(deps, signer, org, opened.session, undefined, now, opened.audience, dpopJkt);
}
