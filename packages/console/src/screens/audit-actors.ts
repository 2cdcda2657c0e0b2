import { allClients, allMembers } from '../api/lists.js';
import type { AuditEvent, Client, Member } from '../api/types.js';

/** Actor ids (usr_…, cli_…) and the words people know them by: an email, a client's name. */
export type ActorNames = ReadonlyMap<string, string>;

/**
 * The org's members (by email) and clients (by name), the actors of most entries; an actor
 * neither list names (an end user, a deleted client) is shown by its id. A list the caller
 * cannot read leaves its actors as ids.
 */
export async function loadActorNames(slug: string): Promise<ActorNames> {
  const [members, clients] = await Promise.all([
    allMembers(slug).catch((): Member[] => []),
    allClients(slug).catch((): Client[] => []),
  ]);
  return new Map([
    ...members.map((m) => [m.user_id, m.email] as const),
    ...clients.map((c) => [c.client_id, c.client_name] as const),
  ]);
}

/** A person or client as one of `entries` recorded them (their own `data`): end users acting on themselves. */
export function namesIn(entries: readonly AuditEvent[], known: ActorNames): ActorNames {
  const names = new Map(known);
  for (const { entity, data } of entries) {
    if (entity !== 'user' && entity !== 'client') continue;
    const id = data.id;
    const name = entity === 'user' ? data.email : data.name;
    if (typeof id === 'string' && typeof name === 'string' && name !== '' && !names.has(id)) {
      names.set(id, name);
    }
  }
  return names;
}
