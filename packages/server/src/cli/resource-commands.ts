import {
  createApiResource,
  createRole,
  deleteApiResource,
  deleteRole,
  getApiResource,
  getClientPermissions,
  getRole,
  getUserRoles,
  listApiResources,
  listRoles,
  setPermissionsOfClient,
  setRolesOfUser,
  updateApiResource,
  updateRole,
} from '../domain/resources/index.js';
import { type ApiResource, type Permission, type ResourceScope, SYSTEM } from '../domain/types.js';
import { givenOnly, required, UsageError, wholeNumber } from './args.js';
import { deletion, inOrg, listing, showing } from './in-org.js';
import type { Commands } from './usage.js';

type ResourceCommand =
  | 'resource list'
  | 'resource create'
  | 'resource show'
  | 'resource update'
  | 'resource delete'
  | 'role list'
  | 'role create'
  | 'role show'
  | 'role update'
  | 'role delete'
  | 'user roles'
  | 'client permissions';

/** `--scope name=description`: split at the first `=`. */
function scopeOf(value: string): ResourceScope {
  const at = value.indexOf('=');
  if (at <= 0) throw new UsageError(`--scope must be NAME=DESCRIPTION: ${value}`);
  return { name: value.slice(0, at), description: value.slice(at + 1) };
}

/** `identifier#scope`: split at the last `#` (identifiers have no fragment). */
function permissionOf(value: string, flag: string): Permission {
  const at = value.lastIndexOf('#');
  if (at <= 0 || at === value.length - 1) throw new UsageError(`${flag} must be IDENTIFIER#SCOPE: ${value}`);
  return { resource: value.slice(0, at), scope: value.slice(at + 1) };
}

const ttlOf = (value: string | undefined) =>
  value === undefined ? {} : { accessTokenTtl: wholeNumber(value, 'ttl', 60, 86_400) };

const shown = (r: ApiResource) => ({
  id: r.id,
  identifier: r.identifier,
  name: r.name,
  scopes: r.scopes,
  accessTokenTtl: r.accessTokenTtl,
});

const roleShown = (r: { id: string; name: string; description: string; permissions: Permission[] }) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  permissions: r.permissions,
});

const ALL = { page: 0, perPage: 1_000 };

/** API resources, roles, users' roles and clients' permissions (DESIGN §15), as the management API has them. */
export const RESOURCE_COMMANDS: Commands<ResourceCommand> = {
  'resource list': listing(async (deps, org) => (await listApiResources(deps, org, ALL)).entries, shown),
  'resource create'(f) {
    const slug = required(f.org, 'org');
    const input = {
      identifier: required(f.identifier, 'identifier'),
      name: required(f.name, 'name'),
      scopes: (f.scope ?? []).map(scopeOf),
      ...ttlOf(f.ttl),
    };
    return inOrg(slug, async (deps, org) => shown(await createApiResource(deps, org, input, SYSTEM)));
  },
  'resource show': showing(getApiResource, shown),
  'resource update'(f) {
    const [slug, id] = [required(f.org, 'org'), required(f.id, 'id')];
    const changes = { ...givenOnly({ name: f.name, scopes: f.scope?.map(scopeOf) }), ...ttlOf(f.ttl) };
    return inOrg(slug, async (deps, org) => shown(await updateApiResource(deps, org, id, changes, SYSTEM)));
  },
  'resource delete': deletion(deleteApiResource),
  'role list': listing(async (deps, org) => (await listRoles(deps, org, ALL)).entries, roleShown),
  'role create'(f) {
    const slug = required(f.org, 'org');
    const input = {
      name: required(f.name, 'name'),
      ...givenOnly({ description: f.description }),
      permissions: (f.permission ?? []).map((p) => permissionOf(p, '--permission')),
    };
    return inOrg(slug, async (deps, org) => roleShown(await createRole(deps, org, input, SYSTEM)));
  },
  'role show': showing(getRole, roleShown),
  'role update'(f) {
    const [slug, id] = [required(f.org, 'org'), required(f.id, 'id')];
    const changes = givenOnly({
      name: f.name,
      description: f.description,
      permissions: f.permission?.map((p) => permissionOf(p, '--permission')),
    });
    return inOrg(slug, async (deps, org) => roleShown(await updateRole(deps, org, id, changes, SYSTEM)));
  },
  'role delete': deletion(deleteRole),
  'user roles'(f) {
    const [slug, user] = [required(f.org, 'org'), required(f.user, 'user')];
    const set = f.set === undefined ? null : f.set.split(',').filter((r) => r !== '');
    return inOrg(slug, async (deps, org) => {
      const roles =
        set === null
          ? await getUserRoles(deps, org, user)
          : await setRolesOfUser(deps, org, user, set, SYSTEM);
      return { data: roles.map(roleShown) };
    });
  },
  'client permissions'(f) {
    const [slug, client] = [required(f.org, 'org'), required(f.client, 'client')];
    const set =
      f.set === undefined
        ? null
        : f.set
            .split(',')
            .filter((p) => p !== '')
            .map((p) => permissionOf(p, '--set'));
    return inOrg(slug, async (deps, org) => {
      const data =
        set === null
          ? await getClientPermissions(deps, org, client)
          : await setPermissionsOfClient(deps, org, client, set, SYSTEM);
      return { data };
    });
  },
};
