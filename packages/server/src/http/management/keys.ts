import { isoTime } from '../../domain/iso-time.js';
import { listKeys, rotateKeys } from '../../domain/keys/index.js';
import { endpoint, ok } from './endpoint.js';
import { KeysQuery, RotatedKeys, SigningKeyList } from './keys-schemas.js';
import { badQuery, noOrg, ORG, OWNERS_READ, OWNERS_WRITE, ownersRefusals, PAGED } from './responses.js';

/** An org's signing keys (owners only; members 403): the published keys, and rotation. */
export const KEY_ENDPOINTS = [
  endpoint(
    {
      ...OWNERS_READ,
      method: 'get',
      path: '/organizations/:org/keys',
      operationId: 'listSigningKeys',
      summary: 'The org’s published signing keys (never key material)',
      params: ORG,
      query: KeysQuery,
      responses: {
        200: {
          description: 'one page: the next key, the active one, then retired ones newest first',
          schema: SigningKeyList,
          headers: PAGED,
        },
        400: badQuery,
        ...ownersRefusals(noOrg),
      },
    },
    async ({ deps, caller, query, page }) => {
      const found = await listKeys(deps, caller.org, { page: query.page, perPage: query.per_page });
      const entries = found.entries.map((k) => ({
        kid: k.kid,
        state: k.state,
        created_at: isoTime(k.createdAt),
      }));
      return page(entries, found.total);
    },
  ),
  endpoint(
    {
      ...OWNERS_WRITE,
      method: 'post',
      path: '/organizations/:org/keys/rotate',
      operationId: 'rotateSigningKeys',
      summary: 'Rotate the org’s signing key',
      description:
        'The published `next` key starts signing; the active one is retired but stays published until ' +
        'the tokens it signed have expired; a new `next` key is published.',
      params: ORG,
      responses: {
        200: { description: 'rotated', schema: RotatedKeys },
        ...ownersRefusals(noOrg),
      },
    },
    async ({ deps, caller }) => {
      const kid = await rotateKeys(deps, caller.org, caller.actor);
      return ok({ kid });
    },
  ),
];
