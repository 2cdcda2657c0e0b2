import { createClient } from '../domain/directory/clients.js';
import { addOrgMember } from '../domain/directory/members.js';
import { updateOrgSettings } from '../domain/directory/org-settings.js';
import { createOrg, requireOrg } from '../domain/directory/orgs.js';
import { createUser } from '../domain/directory/users.js';
import { rotateKeys } from '../domain/keys/keys.js';
import { SYSTEM } from '../domain/types.js';
import { admin } from './admin.js';
import { required, UsageError, type Values } from './args.js';
import type { Launch } from './lifecycle.js';
import type { USAGES } from './usage.js';

type AdminName = Exclude<keyof typeof USAGES, 'serve' | 'migrate' | 'worker'>;

/**
 * The admin commands of DESIGN §8. Each checks its flags first (a usage error opens nothing),
 * then returns the work to do against the database (see admin.ts).
 */
export const ADMIN_COMMANDS: {
  [N in AdminName]: (f: Values<(typeof USAGES)[N]['flags']>) => Launch;
} = {
  'org create'(f) {
    const input = {
      slug: required(f.slug, 'slug'),
      name: f.name ?? null,
      ownerEmail: required(f['owner-email'], 'owner-email'),
      ownerPassword: f['owner-password'] ?? null,
    };
    return admin(async (deps) => {
      const { org, issuer, owner } = await createOrg(deps, input);
      return {
        id: org.id,
        slug: org.slug,
        name: org.name,
        issuer,
        owner: { id: owner.id, email: owner.email },
      };
    });
  },

  'org update'(f) {
    const slug = required(f.org, 'org');
    const value = required(f['require-mfa'], 'require-mfa');
    if (value !== 'true' && value !== 'false') throw new UsageError('--require-mfa must be true or false');
    return admin(async (deps) => {
      const org = await requireOrg(deps.db, slug);
      const settings = await updateOrgSettings(deps, org, { requireMfa: value === 'true' }, SYSTEM);
      return { id: settings.id, slug: settings.slug, requireMfa: settings.requireMfa };
    });
  },

  'user create'(f) {
    const slug = required(f.org, 'org');
    const input = {
      email: required(f.email, 'email'),
      password: required(f.password, 'password'),
      firstName: f['first-name'] ?? null,
      lastName: f['last-name'] ?? null,
    };
    return admin(async (deps) => {
      const org = await requireOrg(deps.db, slug);
      const { user, tenant } = await createUser(deps, org, input, SYSTEM);
      return { id: user.id, email: user.email, tenantId: tenant.id };
    });
  },

  'client create'(f) {
    if (Boolean(f.confidential) === Boolean(f.public))
      throw new UsageError('give exactly one of --confidential or --public');
    const slug = required(f.org, 'org');
    const input = {
      name: required(f.name, 'name'),
      kind: f.confidential ? ('confidential' as const) : ('public' as const),
      redirectUris: f['redirect-uri'] ?? [],
      postLogoutRedirectUris: f['post-logout-redirect-uri'] ?? [],
      grantTypes: f.grant ?? [],
      promoteFrom: f['promote-from'] ?? [],
    };
    return admin(async (deps) => {
      const org = await requireOrg(deps.db, slug);
      const { client, secret, promoteFrom } = await createClient(deps, org, input, SYSTEM);
      return {
        clientId: client.id,
        ...(secret === null ? {} : { clientSecret: secret }),
        redirectUris: client.redirectUris,
        ...(client.postLogoutRedirectUris.length === 0
          ? {}
          : { postLogoutRedirectUris: client.postLogoutRedirectUris }),
        grantTypes: client.grantTypes,
        ...(promoteFrom.length === 0 ? {} : { promoteFrom }),
      };
    });
  },

  'member add'(f) {
    const slug = required(f.org, 'org');
    const email = required(f.email, 'email');
    const role = required(f.role, 'role');
    if (role !== 'owner' && role !== 'member') throw new UsageError('--role must be owner or member');
    return admin(async (deps) => {
      const org = await requireOrg(deps.db, slug);
      const ref = { email, password: f.password ?? null };
      const member = await addOrgMember(deps, org, ref, role, SYSTEM, 'set-role');
      return { orgId: org.id, userId: member.userId, email: member.email, role };
    });
  },

  'keys rotate'(f) {
    const slug = required(f.org, 'org');
    return admin(async (deps) => ({ kid: await rotateKeys(deps, await requireOrg(deps.db, slug), SYSTEM) }));
  },
};
