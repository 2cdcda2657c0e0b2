import { z } from 'zod';
import { PAGE_FIELDS } from './api-schemas.js';
import { CreatedAt } from './instant-fields.js';

/**
 * /organizations/{org}/keys: the responses the routes send (public facts about signing keys,
 * never key material), declared once for the OpenAPI document.
 */

export const KeysQuery = z.strictObject({ ...PAGE_FIELDS });

export const SigningKey = z.object({
  kid: z.string().meta({ description: 'the `kid` of the key in the org’s JWKS and in token headers' }),
  state: z.enum(['next', 'active', 'retired']).meta({
    description:
      'next: published, signs after the next rotation; active: signs now; retired: still published ' +
      'until the tokens it signed have expired',
  }),
  created_at: CreatedAt,
});

export const SigningKeyList = z.array(SigningKey);

export const RotatedKeys = z.object({
  kid: z.string().meta({ description: 'the key that signs from now on (it was the `next` key)' }),
});
