import { signAccessToken } from '../../crypto/jwt.js';
import { newId } from '../../crypto/random.js';
import { clock } from '../clock.js';
import { issuerOf } from '../issuers.js';
import type { TokenAudience } from '../resources/resource-tokens.js';
import { ACCESS_TOKEN_TTL_S } from '../tokens-policy.js';
import type { Client, Org } from '../types.js';
import { requireGrant } from './client-grants.js';
import type { TokensDeps } from './deps.js';

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  /** A resource token's scopes (RFC 6749 §5.1). */
  scope?: string;
  /** The DPoP key's thumbprint the token is bound to (`cnf.jkt`), when it is. */
  boundTo?: string;
}

/**
 * A machine token for a confidential client: `typ client`, `sub` = `aud` = the client id (spec),
 * and RFC 9068's `client_id` — with `scope` for a service account (RFC 9068 §2.2.3), whose scope
 * the caller worked out (domain/tokens/service-account-tokens.ts).
 * `activeKid`, when the caller read it along with the client, saves the key ring its lookup.
 * For a resource (DESIGN §15, machineAudience), `aud` is `[client id, resource]`, `scope` the
 * client's permitted scopes, and the lifetime the resource's. `boundTo`: the thumbprint of the
 * DPoP key the token is bound to (`cnf.jkt`, RFC 9449 §6).
 */
export async function issueMachineToken(
  deps: TokensDeps,
  org: Org,
  client: Client,
  activeKid?: string | null,
  audience: TokenAudience | null = null,
  serviceAccountScope: string | null = null,
  boundTo: string | null = null,
): Promise<IssuedToken> {
  requireGrant(client, 'client_credentials');
  const signer = await deps.keyRing.signer(org, activeKid);
  const iat = Math.floor(clock.now() / 1000);
  const ttl = audience ? audience.resource.accessTokenTtl : ACCESS_TOKEN_TTL_S;
  const scope = audience
    ? audience.scopes.length > 0
      ? audience.scopes.join(' ')
      : undefined
    : (serviceAccountScope ?? undefined);
  const accessToken = await signAccessToken(signer, {
    typ: 'client',
    iss: issuerOf(deps.config, org),
    sub: client.id,
    aud: audience ? [client.id, audience.resource.identifier] : client.id,
    client_id: client.id,
    ...(scope === undefined ? {} : { scope }),
    jti: newId('jti'),
    ...(boundTo === null ? {} : { cnf: { jkt: boundTo } }),
    iat,
    exp: iat + ttl,
  });
  return {
    accessToken,
    expiresIn: ttl,
    ...(scope === undefined ? {} : { scope }),
    ...(boundTo === null ? {} : { boundTo }),
  };
}
