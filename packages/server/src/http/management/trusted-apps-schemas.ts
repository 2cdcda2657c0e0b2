import { z } from 'zod';
import { CreatedAt } from './instant-fields.js';

/**
 * /organizations/{org}/trusted-apps (DESIGN §20): the target applications the org, as an enterprise
 * identity provider, issues ID-JAGs for. The OpenAPI document is generated from these.
 */

const Name = z.string().trim().min(1, 'must be 1-100 characters').max(100, 'must be 1-100 characters');
const Audience = z.string().max(2000).meta({
  description: 'the target authorization server’s issuer URL: the ID-JAG’s `aud` (https; http on loopback)',
});
const TargetClientId = z.string().min(1).max(2000).meta({
  description:
    'the client id the target authorization server knows the asking clients by: the ID-JAG’s `client_id`',
});
const ClientIds = z.array(z.string().max(100)).max(100, 'must hold at most 100 clients').meta({
  description: 'the org’s confidential clients (`cli_…`) that may ask for ID-JAGs for this audience',
});
const Resources = z.array(z.string().max(2000)).max(50, 'must hold at most 50 resources').meta({
  description: 'the resource indicators (RFC 8707) they may ask for; none: they may name no resource',
});
const Scopes = z.array(z.string().max(200)).max(100, 'must hold at most 100 scopes').meta({
  description:
    'the scopes they may ask for at the target; an ID-JAG asked for without scope carries them all',
});

export const CreateTrustedAppBody = z.strictObject({
  name: Name,
  audience: Audience,
  target_client_id: TargetClientId,
  client_ids: ClientIds,
  resources: Resources.optional().meta({ description: 'default none' }),
  scopes: Scopes.optional().meta({ description: 'default none' }),
});

export const UpdateTrustedAppBody = z.strictObject({
  name: Name.optional(),
  audience: Audience.optional(),
  target_client_id: TargetClientId.optional(),
  client_ids: ClientIds.optional(),
  resources: Resources.optional(),
  scopes: Scopes.optional(),
});

export const TrustedAppRecord = z.object({
  id: z.string().meta({ pattern: '^tap_' }),
  name: z.string(),
  audience: z.string(),
  target_client_id: z.string(),
  client_ids: z.array(z.string()),
  resources: z.array(z.string()),
  scopes: z.array(z.string()),
  created_at: CreatedAt,
  updated_at: CreatedAt,
});

/** Not paged (an org has a handful): `{data}` like a client's permissions. */
export const TrustedAppList = z.object({ data: z.array(TrustedAppRecord) });
