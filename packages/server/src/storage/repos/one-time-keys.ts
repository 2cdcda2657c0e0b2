import type { Kysely } from 'kysely';
import type { ImpersonationLink, ProfileKey, PushedAuthorizationRequest } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { Database } from '../schema.js';
import { columnMap, lifespanColumns, orgRowColumns } from './column-map.js';
import { purgeExpired } from './expiry.js';
import { liveOrgRowByHash } from './org-rows.js';

/** The columns every table of single-use keys has: the key's SHA-256, its org, expiry and use. */
interface OneTimeKeyColumns {
  key_hash: string;
  org_id: string;
  expires_at: number;
  used_at: number | null;
}

/** The tables that hold one-time keys (profile page keys, impersonation links, pushed requests). */
type OneTimeKeyTable = 'profile_keys' | 'impersonations' | 'pushed_authorization_requests';

/**
 * The storage of one kind of one-time key: insert, consume once, purge once expired. Only the
 * key's SHA-256 is stored; a used row stays until it expires, as an expired one is of no use.
 */
export interface OneTimeKeys<Key> {
  insert(store: Handle, key: Key): Promise<void>;
  /**
   * Atomic single use: the one UPDATE that flips `used_at` from null returns the row, so exactly
   * one caller receives a live key; an unknown, used or expired key (or another org's) gives null.
   */
  consume(store: Handle, orgId: string, keyHash: string, now: number): Promise<Key | null>;
  purge(store: Handle, expiredBefore: number): Promise<void>;
}

// Seen through their shared columns: Kysely cannot resolve columns through a generic table name.
type KeyDb = Kysely<Record<OneTimeKeyTable, OneTimeKeyColumns>>;

/** A table of one-time keys, and how its rows map to the domain's type and back. */
function oneTimeKeys<T extends OneTimeKeyTable, Key>(
  table: T & (Database[T] extends OneTimeKeyColumns ? unknown : never),
  map: { toRecord(row: Database[T]): Key; toRow(key: Key): Database[T] },
): OneTimeKeys<Key> {
  const name: OneTimeKeyTable = table;
  const keys = (store: Handle) => opened(store) as unknown as KeyDb;
  return {
    async insert(store, key) {
      await keys(store).insertInto(name).values(map.toRow(key)).execute();
    },
    async consume(store, orgId, keyHash, now) {
      const row = await liveOrgRowByHash(
        keys(store).updateTable(name).set({ used_at: now }),
        'key_hash',
        keyHash,
        orgId,
        now,
      )
        .where('used_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      return row ? map.toRecord(row as Database[T]) : null;
    },
    async purge(store, expiredBefore) {
      await purgeExpired(keys(store).deleteFrom(name), expiredBefore);
    },
  };
}

/** Keys of POST /profile/session, opening the hosted profile page once. */
export const profileKeys = oneTimeKeys<'profile_keys', ProfileKey>(
  'profile_keys',
  columnMap<Database['profile_keys'], ProfileKey>()({
    key_hash: 'keyHash',
    org_id: 'orgId',
    user_id: 'userId',
    ...lifespanColumns,
    used_at: 'usedAt',
  }),
);

/** Impersonation links: each completes one authorization request as the user, once (audited on creation). */
export const impersonations = oneTimeKeys<'impersonations', ImpersonationLink>(
  'impersonations',
  columnMap<Database['impersonations'], ImpersonationLink>()({
    key_hash: 'keyHash',
    ...orgRowColumns,
    user_id: 'userId',
    actor_id: 'actorId',
    request_id: 'requestId',
    reason: 'reason',
    ...lifespanColumns,
    used_at: 'usedAt',
  }),
);

/**
 * Pushed authorization requests (RFC 9126): each `request_uri` opens one authorization request, once,
 * within 60 seconds. The parameters are stored as JSON `{params, resources}`.
 */
export const pushedAuthorizationRequests = oneTimeKeys<
  'pushed_authorization_requests',
  PushedAuthorizationRequest
>('pushed_authorization_requests', {
  toRecord: (r) => {
    const stored = JSON.parse(r.parameters) as Pick<PushedAuthorizationRequest, 'params' | 'resources'>;
    return {
      keyHash: r.key_hash,
      orgId: r.org_id,
      clientId: r.client_id,
      params: stored.params,
      resources: stored.resources,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      usedAt: r.used_at,
    };
  },
  toRow: (k) => ({
    key_hash: k.keyHash,
    org_id: k.orgId,
    client_id: k.clientId,
    parameters: JSON.stringify({ params: k.params, resources: k.resources }),
    created_at: k.createdAt,
    expires_at: k.expiresAt,
    used_at: k.usedAt,
  }),
});
