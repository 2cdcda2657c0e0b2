import { ID_JAG_TYP, signIdToken } from '../../crypto/id-token.js';
import { newId } from '../../crypto/random.js';
import { verifyJwt } from '../../crypto/verify-jwt.js';
import { trustedAppsFor } from '../../storage/repos/trusted-apps.js';
import { findUserById } from '../../storage/repos/users.js';
import { recordAudit } from '../audit/audit.js';
import { clock } from '../clock.js';
import { scopeList } from '../directory/console-scopes.js';
import { fail } from '../errors.js';
import { issuerOf } from '../issuers.js';
import { publicJwks } from '../keys/keys.js';
import { ACR_IMPERSONATION } from '../tokens-policy.js';
import { type Client, type Org, SIGNING_ALGORITHMS } from '../types.js';
import type { EnterpriseAccessDeps } from './deps.js';

/** draft-ietf-oauth-identity-assertion-authz-grant §9 and RFC 8693 §3: the token types it speaks of. */
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';

/** An ID-JAG lives five minutes: long enough to present it, too short to be worth keeping. */
export const ID_JAG_TTL_S = 300;

export interface IdJagRequest {
  subjectToken: string;
  subjectTokenType: string;
  audience: string;
  resource: string | undefined;
  scope: string | undefined;
}

export interface IssuedIdJag {
  idJag: string;
  expiresIn: number;
  /** The scopes granted, when any: the response names them (they may be fewer than asked). */
  scope: string | undefined;
}

/**
 * An org's own confidential client, as both sides of Enterprise-Managed Authorization require (the
 * draft's security considerations): never a public client, a registered (DCR) or a metadata-document one.
 */
export function requireConfidentialClient(client: Client): void {
  if (client.kind !== 'confidential' || client.metadataDocument === true)
    fail(
      'token.id_jag.client_not_confidential',
      'only a confidential client of this organization may use Enterprise-Managed Authorization',
    );
}

/**
 * The ID token of `subjectToken` when this org issued it to `client` and it is still live, and the
 * user it names is still one of the org's, enabled; else `invalid_grant`.
 */
async function verifiedSubject(deps: EnterpriseAccessDeps, org: Org, client: Client, subjectToken: string) {
  const claims = await verifyJwt(subjectToken, await publicJwks(deps.store, org.id), {
    issuer: issuerOf(deps.config, org),
    typ: 'JWT',
    // Signed with the org's ID-token algorithm, or the one it had when this token was issued.
    algorithms: [...SIGNING_ALGORITHMS],
    audience: [client.id],
    requiredClaims: ['sub', 'aud', 'exp', 'iat'],
    now: clock.now(),
  });
  const user = typeof claims?.sub === 'string' ? await findUserById(deps.store, claims.sub) : null;
  if (!claims || !user || user.orgId !== org.id || user.disabled)
    return fail(
      'token.id_jag.subject_token_invalid',
      'subject_token is not a live ID token this organization issued to this client',
    );
  return { claims, user };
}

/**
 * Issues an ID-JAG (draft-ietf-oauth-identity-assertion-authz-grant §4.3, DESIGN §20): the org is
 * the enterprise identity provider; `client`, one of its confidential clients, presents an ID token
 * the org issued to it and names the target authorization server (`audience`). Issued only when a
 * trusted app of the org names that audience and lists the client; `resource` must be one the app
 * allows, and the scopes granted are those asked that it allows (all it allows when none are
 * asked). The ID-JAG names the user as its ID tokens do (`sub`), the client by the id the target
 * knows it by (`client_id`), a fresh `jti`, and lives ID_JAG_TTL_S. Each one issued is audited
 * (`id_jag.created`). Errors:
 *
 * | error | when |
 * |---|---|
 * | `unauthorized_client` | the client is not a confidential client |
 * | `invalid_request` | subject_token_type is not an ID token |
 * | `invalid_grant` | the subject token is not a live ID token the org issued to this client, or an impersonated sign-in's |
 * | `invalid_target` | no trusted app names the audience for this client; a resource it does not allow |
 * | `invalid_scope` | scopes were asked and the app allows none of them |
 */
export async function issueIdJag(
  deps: EnterpriseAccessDeps,
  org: Org,
  client: Client,
  input: IdJagRequest,
): Promise<IssuedIdJag> {
  requireConfidentialClient(client);
  if (input.subjectTokenType !== ID_TOKEN_TYPE)
    fail('token.id_jag.subject_token_type', `subject_token_type must be ${ID_TOKEN_TYPE}`);
  const { claims: idToken, user } = await verifiedSubject(deps, org, client, input.subjectToken);
  // An owner signed in as the user (docs/delegation.md): that stays within the client it was opened for.
  if (idToken.acr === ACR_IMPERSONATION)
    fail('token.id_jag.impersonated', 'an impersonated sign-in does not reach other applications');
  const [app] = (await trustedAppsFor(deps.store, org.id, input.audience)).filter((a) =>
    a.clientIds.includes(client.id),
  );
  if (!app)
    return fail(
      'token.id_jag.audience_not_allowed',
      'audience is not an application this organization lets this client reach',
    );
  if (input.resource !== undefined && !app.resources.includes(input.resource))
    fail('token.id_jag.resource_not_allowed', 'resource is not one this client may reach at that audience');
  const asked = scopeList(input.scope ?? '');
  const scopes = asked.length === 0 ? app.scopes : asked.filter((s) => app.scopes.includes(s));
  if (asked.length > 0 && scopes.length === 0)
    fail('token.id_jag.scope_not_allowed', 'none of the scopes asked is allowed at that audience');

  const now = clock.now();
  const iat = Math.floor(now / 1000);
  const jti = newId('jag');
  const claims: Record<string, unknown> = {
    iss: issuerOf(deps.config, org),
    sub: user.id,
    aud: app.audience,
    client_id: app.targetClientId,
    jti,
    iat,
    exp: iat + ID_JAG_TTL_S,
    ...(input.resource === undefined ? {} : { resource: input.resource }),
    ...(scopes.length === 0 ? {} : { scope: scopes.join(' ') }),
    // How the person signed in, as the ID token said it (OIDC Core §2).
    ...(typeof idToken.auth_time === 'number' ? { auth_time: idToken.auth_time } : {}),
    ...(typeof idToken.acr === 'string' ? { acr: idToken.acr } : {}),
    ...(Array.isArray(idToken.amr) ? { amr: idToken.amr } : {}),
  };
  const signer = await deps.keyRing.signer(org.id);
  const idJag = await signIdToken(signer, claims, ID_JAG_TYP);
  await deps.unitOfWork.run((tx) =>
    recordAudit(tx, {
      orgId: org.id,
      entity: 'id_jag',
      verb: 'created',
      actor: { kind: 'client', id: client.id },
      at: now,
      data: {
        jti,
        trustedApp: app.id,
        audience: app.audience,
        clientId: app.targetClientId,
        userId: user.id,
        resource: input.resource ?? null,
        scopes,
      },
    }),
  );
  return {
    idJag,
    expiresIn: ID_JAG_TTL_S,
    scope: scopes.length === 0 ? undefined : scopes.join(' '),
  };
}
