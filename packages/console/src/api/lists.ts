import { get } from './client.js';

/** A list's body: the entries, bare or under `data` (the user's roles and a client's permissions). */
export type ListBody<T> = T[] | { data: T[] };

export const entriesOf = <T>(body: ListBody<T>): T[] => (Array.isArray(body) ? body : body.data);

/** One page of a list and its `Link` relations. */
export async function getList<T>(path: string): Promise<{ entries: T[]; links: Record<string, string> }> {
  const { data, links } = await get<ListBody<T>>(path);
  return { entries: entriesOf(data), links };
}

/** Every entry of a paged list, following its `next` link from `path` (100 a page). */
export async function allPages<T>(path: string): Promise<T[]> {
  const entries: T[] = [];
  let next: string | undefined = `${path}${path.includes('?') ? '&' : '?'}per_page=100`;
  while (next) {
    const page: { entries: T[]; links: Record<string, string> } = await getList<T>(next);
    entries.push(...page.entries);
    next = page.links.next;
  }
  return entries;
}
