import { loadAll } from '../load-all.js';
import { type Answer, api, ok, pageIn } from './client.js';

/** A list's body: the entries, bare or under `data` (the user's roles and a client's permissions). */
export type ListBody<T> = T[] | { data: T[] };

export const entriesOf = <T>(body: ListBody<T>): T[] => (Array.isArray(body) ? body : body.data);

/** One page of a list and its `Link` relations. */
export interface ListPage<T> {
  entries: T[];
  links: Record<string, string>;
}

/** A call of `api` that answers with a list. */
export type Sent<T> = Promise<{ data?: ListBody<T>; error?: unknown; response: Response }>;

/** Which page of a list to read, and (reading them all) how many entries a page. */
export interface PageQuery {
  page: number;
  per_page?: 100;
}

/** One page of a list (a call of `api`) as its entries and `Link` relations. */
export async function listPage<T>(pending: Sent<T>): Promise<ListPage<T>> {
  const { data, links }: Answer<ListBody<T>> = await ok(pending);
  return { entries: entriesOf(data), links };
}

/** One page of a list, and what its table names beside it (the org's connections, its resources…). */
export async function listPageWith<T, M extends object>(
  pending: Sent<T>,
  more: { [K in keyof M]: Promise<M[K]> },
): Promise<ListPage<T> & M> {
  const [page, beside] = await Promise.all([listPage(pending), loadAll(more)]);
  return { ...page, ...beside };
}

/** Every entry of a paged list: `fetchPage` called for page 0, then each page its `next` link names. */
export async function allPages<T>(fetchPage: (query: PageQuery) => Sent<T>): Promise<T[]> {
  const entries: T[] = [];
  for (let page: number | null = 0; page !== null; ) {
    const { entries: more, links }: ListPage<T> = await listPage(fetchPage({ page, per_page: 100 }));
    entries.push(...more);
    page = links.next === undefined ? null : pageIn(links.next);
  }
  return entries;
}

/** The org's path parameter of a list request (api/params.ts's inOrg is the whole params of a call). */
const orgPath = (org: string) => ({ org });

/*
 * One page of each of the org's lists: a screen shows one at a time (listPage), a picker reads them all
 * (allPages).
 */
export const membersPage = (org: string, query: PageQuery) =>
  api.GET('/organizations/{org}/members', { params: { path: orgPath(org), query } });
export const clientsPage = (org: string, query: PageQuery) =>
  api.GET('/organizations/{org}/clients', { params: { path: orgPath(org), query } });
export const resourcesPage = (org: string, query: PageQuery) =>
  api.GET('/organizations/{org}/resources', { params: { path: orgPath(org), query } });
export const rolesPage = (org: string, query: PageQuery) =>
  api.GET('/organizations/{org}/roles', { params: { path: orgPath(org), query } });
export const webhooksPage = (org: string, query: PageQuery) =>
  api.GET('/organizations/{org}/webhooks', { params: { path: orgPath(org), query } });
export const connectionsPage = (org: string, query: PageQuery) =>
  api.GET('/organizations/{org}/connections', { params: { path: orgPath(org), query } });
export const directoriesPage = (org: string, query: PageQuery) =>
  api.GET('/organizations/{org}/directories', { params: { path: orgPath(org), query } });
export const logStreamsPage = (org: string, query: PageQuery) =>
  api.GET('/organizations/{org}/log-streams', { params: { path: orgPath(org), query } });
export const keysPage = (org: string, query: PageQuery) =>
  api.GET('/organizations/{org}/keys', { params: { path: orgPath(org), query } });
export const serviceAccountsPage = (org: string, query: PageQuery) =>
  api.GET('/organizations/{org}/service-accounts', { params: { path: orgPath(org), query } });

/** Every organization of the caller. */
export const allOrganizations = () => allPages((query) => api.GET('/organizations', { params: { query } }));
/** Every member of the org (owners and members). */
export const allMembers = (org: string) => allPages((query) => membersPage(org, query));
/** Every client of the org. */
export const allClients = (org: string) => allPages((query) => clientsPage(org, query));
/** Every API resource of the org. */
export const allResources = (org: string) => allPages((query) => resourcesPage(org, query));
/** Every end-user role of the org. */
export const allRoles = (org: string) => allPages((query) => rolesPage(org, query));
/** Every webhook of the org. */
export const allWebhooks = (org: string) => allPages((query) => webhooksPage(org, query));
/** Every enterprise sign-in connection of the org. */
export const allConnections = (org: string) => allPages((query) => connectionsPage(org, query));
