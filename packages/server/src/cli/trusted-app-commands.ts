import {
  createTrustedApp,
  deleteTrustedApp,
  getTrustedApp,
  listTrustedApps,
  updateTrustedApp,
} from '../domain/enterprise-access/index.js';
import { SYSTEM, type TrustedApp } from '../domain/types.js';
import { required, UsageError, type Values } from './args.js';
import { deletion, inOrg } from './in-org.js';
import type { Launch } from './lifecycle.js';
import type { USAGES } from './usage.js';

type TrustedAppCommand =
  | 'trusted-app list'
  | 'trusted-app create'
  | 'trusted-app show'
  | 'trusted-app update'
  | 'trusted-app delete';

const listOf = (values: string[] | undefined) => values?.filter((v) => v !== '');

const shown = (a: TrustedApp) => ({
  id: a.id,
  name: a.name,
  audience: a.audience,
  targetClientId: a.targetClientId,
  clientIds: a.clientIds,
  resources: a.resources,
  scopes: a.scopes,
  createdAt: new Date(a.createdAt).toISOString(),
  updatedAt: new Date(a.updatedAt).toISOString(),
});

/** Trusted apps (Enterprise-Managed Authorization, DESIGN §20), through the domain functions the API uses. */
export const TRUSTED_APP_COMMANDS: {
  [N in TrustedAppCommand]: (f: Values<(typeof USAGES)[N]['flags']>) => Launch;
} = {
  'trusted-app list'(f) {
    const slug = required(f.org, 'org');
    return inOrg(slug, async (deps, org) => ({
      data: (await listTrustedApps(deps, org)).map(shown),
    }));
  },
  'trusted-app create'(f) {
    const slug = required(f.org, 'org');
    const input = {
      name: required(f.name, 'name'),
      audience: required(f.audience, 'audience'),
      targetClientId: required(f['target-client-id'], 'target-client-id'),
      clientIds: listOf(f.client) ?? [],
      resources: listOf(f.resource),
      scopes: listOf(f.scope),
    };
    if (input.clientIds.length === 0) throw new UsageError('give at least one --client');
    return inOrg(slug, async (deps, org) => shown(await createTrustedApp(deps, org, input, SYSTEM)));
  },
  'trusted-app show'(f) {
    const [slug, id] = [required(f.org, 'org'), required(f.id, 'id')];
    return inOrg(slug, async (deps, org) => shown(await getTrustedApp(deps, org, id)));
  },
  'trusted-app update'(f) {
    const [slug, id] = [required(f.org, 'org'), required(f.id, 'id')];
    const changes = {
      name: f.name,
      audience: f.audience,
      targetClientId: f['target-client-id'],
      clientIds: listOf(f.client),
      resources: listOf(f.resource),
      scopes: listOf(f.scope),
    };
    if (Object.values(changes).every((v) => v === undefined))
      throw new UsageError('give at least one change');
    return inOrg(slug, async (deps, org) => shown(await updateTrustedApp(deps, org, id, changes, SYSTEM)));
  },
  'trusted-app delete': deletion(deleteTrustedApp),
};
