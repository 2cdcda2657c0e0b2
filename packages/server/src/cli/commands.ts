import { readFileSync } from 'node:fs';
import { type BrandingChange, updateBranding } from '../domain/branding/index.js';
import {
  addOrgMember,
  createClient,
  createOrg,
  createServiceAccount,
  createUser,
  deleteServiceAccount,
  listServiceAccounts,
  orgSettings,
  rotateServiceAccountSecret,
  SIGN_UP_POLICIES,
  updateOrgSettings,
} from '../domain/directory/index.js';
import { isoTimeOrNull } from '../domain/iso-time.js';
import { rotateKeys } from '../domain/keys/index.js';
import {
  createInvitation,
  type Invitation,
  listInvitations,
  revokeInvitation,
} from '../domain/teams/index.js';
import {
  type Role,
  SIGNING_ALGORITHMS,
  type SigningAlgorithm,
  type SignUpPolicy,
  SYSTEM,
} from '../domain/types.js';
import { admin } from './admin.js';
import { required, UsageError, type Values } from './args.js';
import { CONNECTION_COMMANDS } from './connection-commands.js';
import { DIRECTORY_COMMANDS } from './directory-commands.js';
import { DOMAIN_COMMANDS } from './domain-commands.js';
import { inOrg } from './in-org.js';
import { LOG_STREAM_COMMANDS } from './log-stream-commands.js';
import { RESOURCE_COMMANDS } from './resource-commands.js';
import { TRUSTED_APP_COMMANDS } from './trusted-app-commands.js';
import type { Commands, USAGES } from './usage.js';

export type AdminName = Exclude<keyof typeof USAGES, 'serve' | 'migrate' | 'worker' | 'backup'>;

/**
 * The branding flags of `org update` as a change (docs/branding.md): each given flag sets its field,
 * an empty value removes it; `--logo` and `--favicon` name image files. Null when none is given.
 */
function brandingFlags(f: Values<(typeof USAGES)['org update']['flags']>): BrandingChange | null {
  const text = (
    name:
      | 'display-name'
      | 'primary-colour'
      | 'background-colour'
      | 'terms-url'
      | 'privacy-url'
      | 'logo'
      | 'favicon',
  ) => {
    const v = f[name];
    return typeof v === 'string' ? (v === '' ? null : v) : undefined;
  };
  const file = (name: 'logo' | 'favicon') => {
    const path = text(name);
    return path === undefined || path === null ? path : readFileSync(path);
  };
  const change: BrandingChange = {};
  const set = <K extends keyof BrandingChange>(key: K, value: BrandingChange[K] | undefined) => {
    if (value !== undefined) change[key] = value;
  };
  set('displayName', text('display-name'));
  set('primary', text('primary-colour'));
  set('background', text('background-colour'));
  set('termsUrl', text('terms-url'));
  set('privacyUrl', text('privacy-url'));
  set('logo', file('logo'));
  set('favicon', file('favicon'));
  return Object.keys(change).length === 0 ? null : change;
}

/**
 * The admin commands of DESIGN §8. Each checks its flags first (a usage error opens nothing),
 * then returns the work to do against the database (see admin.ts).
 */
export const ADMIN_COMMANDS: Commands<AdminName> = {
  ...RESOURCE_COMMANDS,
  ...CONNECTION_COMMANDS,
  ...TRUSTED_APP_COMMANDS,
  ...DOMAIN_COMMANDS,
  ...DIRECTORY_COMMANDS,
  ...LOG_STREAM_COMMANDS,
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
    const signUp = f['sign-up'];
    if (signUp !== undefined && !SIGN_UP_POLICIES.includes(signUp as SignUpPolicy)) {
      throw new UsageError(`--sign-up must be one of ${SIGN_UP_POLICIES.join(', ')}`);
    }
    const domains = f['sign-up-domain'];
    const alg = f['id-token-signing-alg'];
    if (alg !== undefined && !SIGNING_ALGORITHMS.includes(alg as SigningAlgorithm)) {
      throw new UsageError(`--id-token-signing-alg must be one of ${SIGNING_ALGORITHMS.join(', ')}`);
    }
    const change = {
      ...switchFlag(f, 'require-mfa', 'requireMfa'),
      ...switchFlag(f, 'dynamic-registration', 'dynamicRegistration'),
      ...switchFlag(f, 'metadata-documents', 'metadataDocuments'),
      ...(signUp === undefined ? {} : { signUp: signUp as SignUpPolicy }),
      ...(domains === undefined ? {} : { signUpDomains: domains }),
      ...(alg === undefined ? {} : { idTokenSigningAlg: alg as SigningAlgorithm }),
    };
    const branding = brandingFlags(f);
    if (Object.keys(change).length === 0 && branding === null) {
      throw new UsageError(
        'give at least one of --require-mfa, --dynamic-registration, --metadata-documents, --sign-up, --sign-up-domain, --id-token-signing-alg, or a branding flag',
      );
    }
    return inOrg(slug, async (deps, org) => {
      const s =
        Object.keys(change).length === 0
          ? await orgSettings(deps, org)
          : await updateOrgSettings(deps, org, change, SYSTEM);
      const brand = branding === null ? null : await updateBranding(deps, org, null, branding, SYSTEM);
      return {
        id: s.id,
        slug: s.slug,
        requireMfa: s.requireMfa,
        dynamicRegistration: s.dynamicRegistration,
        metadataDocuments: s.metadataDocuments,
        signUp: s.signUp,
        signUpDomains: s.signUpDomains,
        idTokenSigningAlg: s.idTokenSigningAlg,
        ...(brand === null
          ? {}
          : {
              branding: {
                displayName: brand.displayName,
                logo:
                  brand.logo === null ? null : `${brand.logo.sha256}.${brand.logo.mediaType.split('/')[1]}`,
                favicon:
                  brand.favicon === null
                    ? null
                    : `${brand.favicon.sha256}.${brand.favicon.mediaType.split('/')[1]}`,
                primary: brand.primary,
                background: brand.background,
                termsUrl: brand.termsUrl,
                privacyUrl: brand.privacyUrl,
              },
            }),
      };
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
    return inOrg(slug, async (deps, org) => {
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
      ...(f['allowed-origin'] ? { allowedOrigins: f['allowed-origin'] } : {}),
      grantTypes: f.grant ?? [],
      promoteFrom: f['promote-from'] ?? [],
      ...(f['jwks-uri'] === undefined ? {} : { jwksUri: f['jwks-uri'] }),
      ...(f['request-object-signing-alg'] === undefined
        ? {}
        : { requestObjectSigningAlg: f['request-object-signing-alg'] }),
      ...logoutFlags(f),
    };
    return inOrg(slug, async (deps, org) => {
      const { client, secret, promoteFrom } = await createClient(deps, org, input, SYSTEM);
      return {
        clientId: client.id,
        ...(secret === null ? {} : { clientSecret: secret }),
        redirectUris: client.redirectUris,
        ...(client.postLogoutRedirectUris.length === 0
          ? {}
          : { postLogoutRedirectUris: client.postLogoutRedirectUris }),
        ...(client.allowedOrigins === null ? {} : { allowedOrigins: client.allowedOrigins }),
        grantTypes: client.grantTypes,
        ...(promoteFrom.length === 0 ? {} : { promoteFrom }),
        ...(client.jwksUri === undefined ? {} : { jwksUri: client.jwksUri }),
        ...(client.requestObjectSigningAlg === undefined
          ? {}
          : { requestObjectSigningAlg: client.requestObjectSigningAlg }),
        ...(client.backchannelLogout === undefined
          ? {}
          : {
              backchannelLogoutUri: client.backchannelLogout.uri,
              backchannelLogoutSessionRequired: client.backchannelLogout.sessionRequired,
            }),
        ...(client.frontchannelLogout === undefined
          ? {}
          : {
              frontchannelLogoutUri: client.frontchannelLogout.uri,
              frontchannelLogoutSessionRequired: client.frontchannelLogout.sessionRequired,
            }),
      };
    });
  },

  'member add'(f) {
    const slug = required(f.org, 'org');
    const email = required(f.email, 'email');
    const role = required(f.role, 'role');
    if (role !== 'owner' && role !== 'member') throw new UsageError('--role must be owner or member');
    return inOrg(slug, async (deps, org) => {
      const ref = { email, password: f.password ?? null };
      const member = await addOrgMember(deps, org, ref, role, SYSTEM);
      return { orgId: org.id, userId: member.userId, email: member.email, role };
    });
  },

  'service-account create'(f) {
    const slug = required(f.org, 'org');
    const input = { name: required(f.name, 'name'), scopes: f.scope ?? [] };
    if (input.scopes.length === 0) throw new UsageError('--scope is required (one or more)');
    return inOrg(slug, async (deps, org) => {
      const { account, secret } = await createServiceAccount(deps, org, input, SYSTEM);
      return {
        clientId: account.id,
        clientSecret: secret,
        name: account.name,
        scopes: account.scopes,
        tokenEndpoint: `${deps.config.baseUrl}/oauth/token`,
      };
    });
  },

  'service-account list'(f) {
    const slug = required(f.org, 'org');
    return inOrg(slug, async (deps, org) => {
      const { entries } = await listServiceAccounts(deps, org, { page: 0, perPage: 100 });
      return {
        serviceAccounts: entries.map((a) => ({
          clientId: a.id,
          name: a.name,
          scopes: a.scopes,
          createdAt: new Date(a.createdAt).toISOString(),
        })),
      };
    });
  },

  'service-account rotate-secret'(f) {
    const slug = required(f.org, 'org');
    const clientId = required(f['client-id'], 'client-id');
    return inOrg(slug, async (deps, org) => {
      return { clientId, clientSecret: await rotateServiceAccountSecret(deps, org, clientId, SYSTEM) };
    });
  },

  'service-account delete'(f) {
    const slug = required(f.org, 'org');
    const clientId = required(f['client-id'], 'client-id');
    return inOrg(slug, async (deps, org) => {
      await deleteServiceAccount(deps, org, clientId, SYSTEM);
      return { clientId, deleted: true };
    });
  },

  'invitation create'(f) {
    const slug = required(f.org, 'org');
    const email = required(f.email, 'email');
    const given = f.role ?? null;
    if (given !== null && given !== 'owner' && given !== 'member')
      throw new UsageError('--role must be owner or member');
    const role: Role | null = given;
    return inOrg(slug, async (deps, org) => {
      const kind = role === null ? ('user' as const) : ('member' as const);
      const input = { kind, email, role, roles: f['role-id'] ?? [], sendMail: f.mail === true };
      const { invitation, url } = await createInvitation(deps, org, input, SYSTEM);
      return { ...invitationOutput(invitation), ...(url === null ? {} : { url }) };
    });
  },

  'invitation list'(f) {
    const slug = required(f.org, 'org');
    const kind = f.kind ?? null;
    if (kind !== null && kind !== 'user' && kind !== 'member')
      throw new UsageError('--kind must be user or member');
    const state = f.state ?? null;
    if (state !== null && state !== 'pending' && state !== 'accepted' && state !== 'expired')
      throw new UsageError('--state must be pending, accepted or expired');
    return inOrg(slug, async (deps, org) => {
      const invitations: ReturnType<typeof invitationOutput>[] = [];
      for (let page = 0; ; page++) {
        const { entries, total } = await listInvitations(deps, org, { kind, state, page, perPage: 100 });
        invitations.push(...entries.map(invitationOutput));
        if (invitations.length >= total || entries.length === 0) break;
      }
      return { invitations };
    });
  },

  'invitation revoke'(f) {
    const slug = required(f.org, 'org');
    const id = required(f.id, 'id');
    return inOrg(slug, async (deps, org) => {
      await revokeInvitation(deps, org, id, SYSTEM);
      return { id, revoked: true };
    });
  },

  'keys rotate'(f) {
    const slug = required(f.org, 'org');
    return inOrg(slug, async (deps, org) => ({
      kid: await rotateKeys(deps, org, SYSTEM),
    }));
  },
};

/**
 * The client's back- and front-channel logout (OIDC Back-Channel / Front-Channel Logout 1.0) from
 * `--backchannel-logout-uri U [--backchannel-logout-session-required]` and the front-channel pair; a
 * `--…-session-required` without its URI is refused.
 */
function logoutFlags(f: Record<string, unknown>) {
  const out: Record<string, string | boolean> = {};
  for (const channel of ['backchannel', 'frontchannel'] as const) {
    const uri = f[`${channel}-logout-uri`];
    const required = f[`${channel}-logout-session-required`] === true;
    if (typeof uri !== 'string') {
      if (required)
        throw new UsageError(`--${channel}-logout-session-required needs --${channel}-logout-uri`);
      continue;
    }
    out[`${channel}LogoutUri`] = uri;
    out[`${channel}LogoutSessionRequired`] = required;
  }
  return out as {
    backchannelLogoutUri?: string;
    backchannelLogoutSessionRequired?: boolean;
    frontchannelLogoutUri?: string;
    frontchannelLogoutSessionRequired?: boolean;
  };
}

/** An optional `--flag true|false` as `{[key]: boolean}`, or nothing when the flag is absent. */
function switchFlag<K extends string>(
  f: Record<string, unknown>,
  flag: string,
  key: K,
): Partial<Record<K, boolean>> {
  const value = f[flag];
  if (value === undefined) return {};
  if (value !== 'true' && value !== 'false') throw new UsageError(`--${flag} must be true or false`);
  return { [key]: value === 'true' } as Partial<Record<K, boolean>>;
}

/** An invitation as the CLI prints it (camelCase like the other commands; never its link). */
function invitationOutput(i: Invitation) {
  return {
    id: i.id,
    kind: i.kind,
    email: i.email,
    role: i.role,
    roles: i.roles,
    state: i.state,
    expiresAt: isoTimeOrNull(i.expiresAt),
    acceptedAt: isoTimeOrNull(i.acceptedAt),
  };
}
