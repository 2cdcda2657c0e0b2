import type { Handle } from '../../storage/handle.js';
import { listPromotableClients } from '../../storage/repos/client-promotions.js';
import { fail } from '../errors.js';
import { type Client, DEVICE_CODE_GRANT } from '../types.js';

/**
 * Which client may use which grant: the one rule the token endpoint's grants, the authorize
 * endpoint and refresh-token issuing all follow. A grant the client may not use is
 * `unauthorized_client` (RFC 6749 §5.2).
 *
 * | grant | who may use it |
 * |---|---|
 * | `authorization_code` | a client registered with it |
 * | `refresh_token` | a client registered with it |
 * | `client_credentials` | a confidential client registered with it |
 * | device code (RFC 8628) | a client registered with it (at the device authorization endpoint too) |
 * | switch tenant | a client with user sessions: registered with `authorization_code` |
 * | token exchange | a confidential client that lists promotable public clients |
 */
export type TokenGrant =
  | 'authorization_code'
  | 'refresh_token'
  | 'client_credentials'
  | 'switch_tenant'
  | 'device_code';

const REFUSALS: Record<TokenGrant, string> = {
  authorization_code: 'this client may not use the authorization_code grant',
  refresh_token: 'this client may not use the refresh_token grant',
  client_credentials: 'this client may not use the client_credentials grant',
  switch_tenant: 'this client has no user sessions to switch',
  device_code: 'this client may not use the device authorization grant',
};

/** Whether `client` may use `grant` (see the table above). */
export function mayUseGrant(client: Client, grant: TokenGrant): boolean {
  switch (grant) {
    case 'authorization_code':
    case 'refresh_token':
      return client.grantTypes.includes(grant);
    case 'client_credentials':
      return client.kind === 'confidential' && client.grantTypes.includes(grant);
    case 'switch_tenant':
      return client.grantTypes.includes('authorization_code');
    case 'device_code':
      return client.grantTypes.includes(DEVICE_CODE_GRANT);
  }
}

/** Refuses, with `unauthorized_client`, a grant the client may not use. */
export function requireGrant(client: Client, grant: TokenGrant): void {
  if (!mayUseGrant(client, grant)) fail('token.grant.not_allowed', REFUSALS[grant]);
}

/**
 * Token exchange: the public clients whose user tokens `client` may promote, or
 * `unauthorized_client` when it may promote none (a public client never may).
 */
export async function requireTokenExchange(db: Handle, client: Client): Promise<string[]> {
  const promotable = client.kind === 'confidential' ? await listPromotableClients(db, client.id) : [];
  if (promotable.length === 0) fail('token.exchange.not_allowed', 'this client may not use token exchange');
  return promotable;
}
