import { z } from 'zod';
import { SERVICE_ACCOUNT_SCOPES } from '../../domain/directory/index.js';
import { PAGE_FIELDS } from './api-schemas.js';
import { CreatedAt } from './instant-fields.js';
import { printableName } from './name-schemas.js';

/**
 * /organizations/{org}/service-accounts (DESIGN §16): the bodies the routes validate with and the
 * responses they send, declared once; the OpenAPI document is generated from the same objects.
 */

const ServiceAccountName = printableName('what the owners call it (the console and audit entries show it)');

const Scope = z.enum(
  SERVICE_ACCOUNT_SCOPES as [string, ...string[]],
  `must be one of ${SERVICE_ACCOUNT_SCOPES.join(', ')}`,
);

const Scopes = z
  .array(Scope)
  .min(1, 'must name at least one scope')
  .meta({ description: 'the management scopes its tokens carry; `users:impersonate` is never one' });

/** Public keys for private_key_jwt (RFC 7523): a JWK Set; checked by domain/directory/client-jwks.ts. */
const Jwks = z
  .object({ keys: z.array(z.record(z.string(), z.unknown())) })
  .meta({ description: '1-10 public JWKs (RSA, EC, OKP) for private_key_jwt at the token endpoint' });

export const CreateServiceAccountBody = z.strictObject({
  name: ServiceAccountName,
  scopes: Scopes,
  jwks: Jwks.optional(),
});

export const ServiceAccountsQuery = z.strictObject({ ...PAGE_FIELDS });

export const ServiceAccount = z.object({
  client_id: z.string().meta({ pattern: '^cli_', description: 'its `client_id` at the token endpoint' }),
  name: z.string(),
  scopes: z.array(Scope),
  jwks: Jwks.optional().meta({ description: 'only when it has keys for private_key_jwt' }),
  token_endpoint: z.string().meta({
    format: 'uri',
    description: 'where it gets tokens: the console issuer’s token endpoint, `grant_type=client_credentials`',
  }),
  secret_issued_at: z
    .string()
    .meta({ format: 'date-time', description: 'when the current secret was issued' }),
  created_at: CreatedAt,
});

const SECRET = 'the client secret (`tcs_…`); in this response only, stored as a hash';

export const CreatedServiceAccount = ServiceAccount.extend({
  client_secret: z.string().meta({ description: SECRET }),
});

export const ServiceAccountList = z.array(ServiceAccount);

export const ServiceAccountSecret = z.object({ client_secret: z.string().meta({ description: SECRET }) });
