import { createClient } from '../domain/clients.js';
import type { Deps } from '../domain/context.js';
import { rotateOrgKeys } from '../domain/keys.js';
import { addMember, prepareConsoleUser } from '../domain/members.js';
import { setOrgRequireMfa } from '../domain/org-settings.js';
import { createOrg, requireOrg } from '../domain/orgs.js';
import { SYSTEM } from '../domain/types.js';
import { insertUserWithTenant, prepareUser } from '../domain/users.js';
import { flags, required, UsageError } from './args.js';

/** The admin commands of DESIGN §8; each returns the one JSON object it prints. */
export const COMMANDS: Record<string, (deps: Deps, argv: string[]) => Promise<object>> = {
  async 'org create'(deps, argv) {
    const f = flags(argv, {
      slug: { type: 'string' },
      name: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-password': { type: 'string' },
    });
    const { org, issuer, owner } = await createOrg(deps, {
      slug: required(f.slug, 'slug'),
      name: f.name ?? null,
      ownerEmail: required(f['owner-email'], 'owner-email'),
      ownerPassword: f['owner-password'] ?? null,
    });
    return {
      id: org.id,
      slug: org.slug,
      name: org.name,
      issuer,
      owner: { id: owner.id, email: owner.email },
    };
  },

  async 'org update'(deps, argv) {
    const f = flags(argv, { org: { type: 'string' }, 'require-mfa': { type: 'string' } });
    const value = required(f['require-mfa'], 'require-mfa');
    if (value !== 'true' && value !== 'false') throw new UsageError('--require-mfa must be true or false');
    const org = await requireOrg(deps.db, required(f.org, 'org'));
    return setOrgRequireMfa(deps, org, value === 'true', SYSTEM);
  },

  async 'user create'(deps, argv) {
    const f = flags(argv, {
      org: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
    });
    const org = await requireOrg(deps.db, required(f.org, 'org'));
    const prepared = await prepareUser({
      email: required(f.email, 'email'),
      password: required(f.password, 'password'),
      firstName: f['first-name'] ?? null,
      lastName: f['last-name'] ?? null,
    });
    const { user, tenant } = await deps.db
      .transaction()
      .execute((trx) => insertUserWithTenant(trx, org.id, prepared, SYSTEM));
    return { id: user.id, email: user.email, tenantId: tenant.id };
  },

  async 'client create'(deps, argv) {
    const f = flags(argv, {
      org: { type: 'string' },
      name: { type: 'string' },
      confidential: { type: 'boolean' },
      public: { type: 'boolean' },
      'redirect-uri': { type: 'string', multiple: true },
      grant: { type: 'string', multiple: true },
      'promote-from': { type: 'string', multiple: true },
    });
    if (Boolean(f.confidential) === Boolean(f.public))
      throw new UsageError('give exactly one of --confidential or --public');
    const org = await requireOrg(deps.db, required(f.org, 'org'));
    const { client, secret, promoteFrom } = await createClient(
      deps,
      org,
      {
        name: required(f.name, 'name'),
        kind: f.confidential ? 'confidential' : 'public',
        redirectUris: f['redirect-uri'] ?? [],
        grantTypes: f.grant ?? [],
        promoteFrom: f['promote-from'] ?? [],
      },
      SYSTEM,
    );
    return {
      clientId: client.id,
      ...(secret === null ? {} : { clientSecret: secret }),
      redirectUris: client.redirectUris,
      grantTypes: client.grantTypes,
      ...(promoteFrom.length === 0 ? {} : { promoteFrom }),
    };
  },

  async 'member add'(deps, argv) {
    const f = flags(argv, {
      org: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      password: { type: 'string' },
    });
    const role = required(f.role, 'role');
    if (role !== 'owner' && role !== 'member') throw new UsageError('--role must be owner or member');
    const org = await requireOrg(deps.db, required(f.org, 'org'));
    const ready = await prepareConsoleUser(deps.db, {
      email: required(f.email, 'email'),
      password: f.password ?? null,
    });
    const user = await deps.db.transaction().execute((trx) => addMember(trx, org, ready, role, SYSTEM));
    return { orgId: org.id, userId: user.id, email: user.email, role };
  },

  async 'keys rotate'(deps, argv) {
    const f = flags(argv, { org: { type: 'string' } });
    const org = await requireOrg(deps.db, required(f.org, 'org'));
    const kid = await deps.db.transaction().execute((trx) => rotateOrgKeys(trx, deps.sealer, org.id, SYSTEM));
    return { kid };
  },
};
