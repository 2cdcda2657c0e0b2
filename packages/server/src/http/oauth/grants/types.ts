import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../../domain/context.js';
import type { PresentedClient } from '../../../domain/tokens/index.js';
import type { Org } from '../../../domain/types.js';

/** What a successful grant answers (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  /**
   * `DPoP` for a token bound to the key of the request's DPoP proof (RFC 9449 §5); `N_A` for what
   * token exchange issues that is no access token (an ID-JAG, RFC 8693 §2.2.1).
   */
  token_type: 'Bearer' | 'DPoP' | 'N_A';
  expires_in: number;
  refresh_token?: string;
  scope?: string;
  /** OpenID Connect (OIDC Core §3.1.3.3): when the session was granted `openid`. */
  id_token?: string;
  /** Token exchange only (RFC 8693 §2.2.1). */
  issued_token_type?: string;
}

export interface GrantContext {
  deps: Deps;
  org: Org;
  request: FastifyRequest;
  params: Partial<Record<string, string>>;
  /** How the request authenticates its client (http/oauth/client-authentication.ts). */
  client: PresentedClient;
  /** The `DPoP` header (RFC 9449 §4), unchecked, or null: checked once the client is known (dpopKey). */
  dpop: string | null;
}

/** One grant type: the parameters it understands (beyond grant_type and client authentication) and its handler. */
export interface Grant {
  parameters: readonly string[];
  handle(ctx: GrantContext): Promise<TokenResponse>;
}
