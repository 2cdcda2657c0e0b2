import { newId } from '../crypto/random.js';

/** The id prefix of each resource: `org_…`, `tnt_…`, `usr_…`, `cli_…`, `whk_…`, `api_…`, `rol_…`, `inv_…`, `con_…`, `lst_…`, `dir_…`, `grp_…`, `tap_…`, `dom_…`. */
export const ID_PREFIX = {
  org: 'org',
  tenant: 'tnt',
  user: 'usr',
  client: 'cli',
  webhook: 'whk',
  resource: 'api',
  role: 'rol',
  invitation: 'inv',
  connection: 'con',
  logStream: 'lst',
  directory: 'dir',
  group: 'grp',
  trustedApp: 'tap',
  domain: 'dom',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

/** A new random id of `kind`, with its prefix. */
export const newResourceId = (kind: IdKind): string => newId(ID_PREFIX[kind]);

/** Whether `value` has the shape of an id of `kind` (its prefix); the store decides whether it exists. */
export const isIdOf = (kind: IdKind, value: string): boolean => value.startsWith(`${ID_PREFIX[kind]}_`);
