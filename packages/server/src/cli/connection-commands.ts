import { readFileSync } from 'node:fs';
import {
  type Connection,
  type ConnectionChanges,
  connectionFields,
  connectionUrls,
  createConnection,
  deleteConnection,
  listConnections,
  oidcSettingsShown,
  requireConnection,
  updateConnection,
} from '../domain/federation/index.js';
import { type Org, SYSTEM } from '../domain/types.js';
import { required, UsageError } from './args.js';
import { deletion, inOrg, listing, showing } from './in-org.js';
import { readSecret } from './secret-input.js';
import type { Commands } from './usage.js';

type ConnectionCommand =
  | 'connection create'
  | 'connection list'
  | 'connection show'
  | 'connection update'
  | 'connection delete';

const SECRET = 'Client secret';
const OIDC_FLAGS = [
  'issuer',
  'client-id',
  'scope',
  'hosted-domain',
  'allowed-endpoint-host',
  'accept-id-jag',
  'no-accept-id-jag',
] as const;
const SAML_FLAGS = ['metadata-file', 'entity-id', 'sso-url', 'certificate-file'] as const;

/**
 * A connection as the management API's view has it (camelCase, like every CLI answer): its
 * settings and the URLs to give the provider, never the client secret.
 */
function shown(deps: Parameters<typeof connectionUrls>[0], org: Org, c: Connection) {
  const urls = connectionUrls(deps, org, c);
  return {
    ...connectionFields(c),
    ...(c.type === 'oidc'
      ? {
          oidc: oidcSettingsShown(c.oidc),
          callbackUrl: urls.callbackUrl,
        }
      : {
          saml: { idpEntityId: c.saml.entityId, ssoUrl: c.saml.ssoUrl, certificates: c.saml.certificates },
          acsUrl: urls.acsUrl,
          spEntityId: urls.spEntityId,
          spMetadataUrl: urls.metadataUrl,
        }),
    createdAt: new Date(c.createdAt).toISOString(),
    updatedAt: new Date(c.updatedAt).toISOString(),
  };
}

/** `--jit` / `--no-jit`: the choice, or undefined when neither is given. */
function jitOf(f: { jit?: boolean; 'no-jit'?: boolean }): boolean | undefined {
  if (f.jit && f['no-jit']) throw new UsageError('give one of --jit or --no-jit');
  return f.jit ? true : f['no-jit'] ? false : undefined;
}

/** `--accept-id-jag` / `--no-accept-id-jag`: the choice, or undefined when neither is given. */
function acceptIdJagOf(f: { 'accept-id-jag'?: boolean; 'no-accept-id-jag'?: boolean }): boolean | undefined {
  if (f['accept-id-jag'] && f['no-accept-id-jag'])
    throw new UsageError('give one of --accept-id-jag or --no-accept-id-jag');
  return f['accept-id-jag'] ? true : f['no-accept-id-jag'] ? false : undefined;
}

/** `--jit-any-domain` / `--no-jit-any-domain`: the choice, or undefined when neither is given. */
function jitAnyDomainOf(f: {
  'jit-any-domain'?: boolean;
  'no-jit-any-domain'?: boolean;
}): boolean | undefined {
  if (f['jit-any-domain'] && f['no-jit-any-domain'])
    throw new UsageError('give one of --jit-any-domain or --no-jit-any-domain');
  return f['jit-any-domain'] ? true : f['no-jit-any-domain'] ? false : undefined;
}

/** `--hosted-domain`: the domain, null for `""` (no check), undefined when not given. */
const hostedDomainOf = (value: string | undefined) => (value === '' ? null : value);

/** A repeatable flag's values; a lone `""` (`--domain ""`) is the empty list. */
const listOf = (values: string[] | undefined) => values?.filter((v) => v !== '');

/** A file a flag names, read now, before the database is opened. */
function fileOf(path: string | undefined, flag: string): string | undefined {
  if (path === undefined) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read --${flag} ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`,
    );
  }
}

/** The flags of the other type are refused, by name. */
function refuseFlags(f: Record<string, unknown>, flags: readonly string[], type: string) {
  const given = flags.find((flag) => f[flag] !== undefined);
  if (given) throw new UsageError(`--${given} is not for ${type} connections`);
}

/** The SAML IdP given by flags: its metadata file, or the three values by hand. */
function samlOf(f: {
  'metadata-file'?: string;
  'entity-id'?: string;
  'sso-url'?: string;
  'certificate-file'?: string;
}) {
  const byHand =
    f['entity-id'] !== undefined || f['sso-url'] !== undefined || f['certificate-file'] !== undefined;
  if (f['metadata-file'] !== undefined && byHand)
    throw new UsageError('give --metadata-file, or --entity-id, --sso-url and --certificate-file, not both');
  return {
    metadataXml: fileOf(f['metadata-file'], 'metadata-file'),
    entityId: f['entity-id'],
    ssoUrl: f['sso-url'],
    certificate: fileOf(f['certificate-file'], 'certificate-file'),
  };
}

/** Enterprise sign-in connections (DESIGN §17), through the domain functions the management API uses. */
export const CONNECTION_COMMANDS: Commands<ConnectionCommand> = {
  'connection create'(f) {
    const slug = required(f.org, 'org');
    const type = required(f.type, 'type');
    if (type !== 'oidc' && type !== 'saml') throw new UsageError('--type must be oidc or saml');
    const common = {
      name: required(f.name, 'name'),
      domains: listOf(f.domain),
      jit: jitOf(f),
      jitAnyDomain: jitAnyDomainOf(f),
      defaultRoles: listOf(f['default-role']),
    };
    if (type === 'saml') {
      refuseFlags(f, OIDC_FLAGS, 'saml');
      const saml = samlOf(f);
      if (
        saml.metadataXml === undefined &&
        (!saml.entityId || !saml.ssoUrl || saml.certificate === undefined)
      )
        throw new UsageError(
          'a saml connection needs --metadata-file, or --entity-id, --sso-url and --certificate-file',
        );
      return inOrg(slug, async (deps, org) => {
        return shown(deps, org, await createConnection(deps, org, { ...common, type, ...saml }, SYSTEM));
      });
    }
    refuseFlags(f, SAML_FLAGS, 'oidc');
    const issuer = required(f.issuer, 'issuer');
    const clientId = required(f['client-id'], 'client-id');
    const scopes = listOf(f.scope);
    const hostedDomain = hostedDomainOf(f['hosted-domain']);
    const allowedEndpointHosts = listOf(f['allowed-endpoint-host']);
    const acceptIdJag = acceptIdJagOf(f);
    return async () => {
      const clientSecret = await readSecret(SECRET);
      return inOrg(slug, async (deps, org) => {
        const input = {
          ...common,
          type: 'oidc' as const,
          issuer,
          clientId,
          clientSecret,
          scopes,
          hostedDomain,
          allowedEndpointHosts,
          acceptIdJag,
        };
        return shown(deps, org, await createConnection(deps, org, input, SYSTEM));
      })();
    };
  },

  'connection list': listing(listConnections, (c, deps, org) => shown(deps, org, c)),

  'connection show': showing(requireConnection, (c, deps, org) => shown(deps, org, c)),

  'connection update'(f) {
    const [slug, id] = [required(f.org, 'org'), required(f.id, 'id')];
    const changes: ConnectionChanges = {
      name: f.name,
      domains: listOf(f.domain),
      jit: jitOf(f),
      jitAnyDomain: jitAnyDomainOf(f),
      defaultRoles: listOf(f['default-role']),
      issuer: f.issuer,
      clientId: f['client-id'],
      scopes: listOf(f.scope),
      hostedDomain: hostedDomainOf(f['hosted-domain']),
      allowedEndpointHosts: listOf(f['allowed-endpoint-host']),
      acceptIdJag: acceptIdJagOf(f),
      ...samlOf(f),
    };
    const newSecret = f['new-client-secret'] === true;
    if (!newSecret && Object.values(changes).every((v) => v === undefined))
      throw new UsageError('give at least one change');
    return async () => {
      const clientSecret = newSecret ? await readSecret(SECRET) : undefined;
      return inOrg(slug, async (deps, org) => {
        return shown(deps, org, await updateConnection(deps, org, id, { ...changes, clientSecret }, SYSTEM));
      })();
    };
  },

  'connection delete': deletion(deleteConnection),
};
