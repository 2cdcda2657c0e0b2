import type { RefusalReport } from './refusal.js';

/**
 * The payload of a verified Tessera access token, exactly as the issuer signed it.
 *
 * The named members are the ones the verification rules read; any other claim (`sid`, `amr`, `acr`,
 * `act`, `azp`, …) is kept as it came, under its own name. The object is deeply frozen: one verified
 * result may be shared by every request that presents the same token.
 *
 * @example
 * ```ts
 * import { principalOf } from '@tessera/koa';
 *
 * router.get('/audit', (ctx) => {
 *   const { claims } = principalOf(ctx);
 *   ctx.body = { session: claims.sid, actingAdmin: (claims.act as { sub?: string } | undefined)?.sub };
 * });
 * ```
 */
export interface AccessTokenClaims {
  readonly typ: 'user' | 'client';
  readonly iss: string;
  readonly sub: string;
  readonly aud: string | readonly string[];
  readonly exp: number;
  readonly iat?: number;
  readonly nbf?: number;
  readonly jti?: string;
  readonly tnt?: string;
  /** Only on a promoted token (RFC 8693 exchange): the public client the user signed in to. */
  readonly azp?: string;
  /** Only on an impersonated session: the acting admin (`sub` is their `usr_…` id). */
  readonly act?: { readonly sub: string };
  /** RFC 9068: the scopes granted, space-separated (for a resource: its scopes the grant allowed). */
  readonly scope?: string;
  readonly [claim: string]: unknown;
}

/**
 * A verified user token (`typ` = `user`): a person signed in to `clientId`, acting in a tenant.
 *
 * @example
 * ```ts
 * const who = principalOf(ctx);
 * if (who.kind === 'user') ctx.body = { user: who.userId, tenant: who.tenantId };
 * ```
 */
export interface VerifiedUser {
  readonly kind: 'user';
  /** The token's `sub`, a `usr_…` id. */
  readonly userId: string;
  /** The token's `tnt`, a `tnt_…` id. */
  readonly tenantId: string;
  readonly claims: AccessTokenClaims;
}

/**
 * A verified machine token (`typ` = `client`) of one of the verifier's `trustedClients`.
 *
 * @example
 * ```ts
 * const who = principalOf(ctx);
 * if (who.kind === 'client') ctx.body = { caller: who.clientId };
 * ```
 */
export interface VerifiedClient {
  readonly kind: 'client';
  /** The token's `sub`, which is also its `aud`. */
  readonly clientId: string;
  readonly claims: AccessTokenClaims;
}

/**
 * What a verifier returns for a token it accepts.
 *
 * @example
 * ```ts
 * const verified: Verified | null = await verify(token);
 * const id = verified?.kind === 'user' ? verified.userId : verified?.clientId;
 * ```
 */
export type Verified = VerifiedUser | VerifiedClient;

/**
 * A token verifier: the verified token, or `null` for any failure. `report`, when given, is told why
 * (a `Refusal`); the answer is the same with or without it. `proofKey`: the RFC 7638 thumbprint of
 * the key a DPoP proof of the request showed (`authenticate` passes it with its `dpop` option); a
 * token bound to a key (`cnf`) is accepted only with its own, an unbound one only without one.
 *
 * @example
 * ```ts
 * const verify: Verify = createVerifier({ issuer: 'https://acme.example.com/', clientId: 'cli_123' });
 * const verified = await verify(token);
 * ```
 */
export type Verify = (token: string, report?: RefusalReport, proofKey?: string) => Promise<Verified | null>;

/**
 * Decides whether a request may pass without a token. `path` excludes the query string; `method` is
 * upper case (`GET`, `POST`, …).
 *
 * @example
 * ```ts
 * const allow: Allow = whitelist([['/health', ['GET', 'HEAD']]]);
 * allow('/health', 'GET'); // true
 * ```
 */
export type Allow = (path: string, method: string) => boolean;
