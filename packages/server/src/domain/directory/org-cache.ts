import type { Handle } from '../../storage/handle.js';
import { findConsoleOrg, findOrgBySlug } from '../../storage/repos/orgs.js';
import type { CredentialCache } from '../credential-cache.js';
import type { Org } from '../types.js';
import { CONSOLE_SLUG } from './orgs.js';

/**
 * The org each host's slug names (Deps.orgs), kept for the token endpoint beside its client lookups
 * and with the same rule (domain/credential-cache.ts): on SQLite an org is served only while no
 * commit has changed clients, keys or orgs since it was read (migration 030); on PostgreSQL until a
 * NOTIFY on the credentials channel empties the cache, never while the listener is away, and no
 * longer than CREDENTIALS_MAX_AGE_MS after it was read, which bounds a change whose NOTIFY was lost
 * (migration 013 announces every change to organizations). Unknown slugs are never kept: an org
 * created a moment ago is found at once.
 */
export type OrgCache = CredentialCache<Org>;

/**
 * The org of a host's slug (the console org for CONSOLE_SLUG), or null. With `cache`, a lookup
 * it still holds is reused; without, the database is read.
 */
export function orgOfSlug(db: Handle, slug: string, cache?: OrgCache): Promise<Org | null> {
  const read = () => (slug === CONSOLE_SLUG ? findConsoleOrg(db) : findOrgBySlug(db, slug));
  return cache ? cache.get(slug, read) : read();
}
