import { JWT_BEARER_GRANT } from '../../../domain/enterprise-access/index.js';
import { SWITCH_TENANT_GRANT, TOKEN_EXCHANGE_GRANT } from '../../../domain/tokens/index.js';
import { DEVICE_CODE_GRANT } from '../../../domain/types.js';
import { authorizationCode } from './authorization-code.js';
import { clientCredentials } from './client-credentials.js';
import { deviceCode } from './device-code.js';
import { jwtBearer } from './jwt-bearer.js';
import { refreshToken } from './refresh-token.js';
import { switchTenant } from './switch-tenant.js';
import { tokenExchange } from './token-exchange.js';
import type { Grant } from './types.js';

/** Every grant type the token endpoint serves, by its `grant_type` value. */
export const GRANTS: ReadonlyMap<string, Grant> = new Map<string, Grant>([
  ['authorization_code', authorizationCode],
  ['refresh_token', refreshToken],
  ['client_credentials', clientCredentials],
  [SWITCH_TENANT_GRANT, switchTenant],
  [TOKEN_EXCHANGE_GRANT, tokenExchange],
  [DEVICE_CODE_GRANT, deviceCode],
  [JWT_BEARER_GRANT, jwtBearer],
]);
