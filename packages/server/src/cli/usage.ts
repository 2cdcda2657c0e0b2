import type { Values } from './args.js';
import type { Launch } from './lifecycle.js';
import {
  all,
  either,
  negatable,
  optional,
  renderSynopsis,
  repeated,
  type SpecOf,
  type SynopsisPart,
  specOf,
  toggle,
  value,
} from './synopsis.js';

/** A command as declared: its flags once, in the order its usage line shows them, and its words. */
interface Declared {
  /** The flags as written after `tessera <command>`: the usage line and the flags it accepts. */
  readonly synopsis: readonly SynopsisPart[];
  /** One line for the list of commands. */
  readonly summary: string;
  /** What `tessera <command> --help` adds: what it prints, what it needs. */
  readonly details: readonly string[];
  /** The one word the command takes besides its flags (`tessera backup FILE`), if any. */
  readonly positional?: string;
}

/** `--org S`, which nearly every command takes. */
const ORG = value('org', 'S');

/** `--org S --id ID …`: one thing of the organization, named by its id, and what else the command takes. */
const byId = <P extends readonly SynopsisPart[]>(shown: string, ...more: P) =>
  [ORG, value('id', shown), ...more] as const;

/** A `… show` command: it prints the one thing, as create and update print it. */
const showing = (shown: string, summary: string, item: string) =>
  ({ synopsis: byId(shown), summary, details: [`Prints the ${item}.`] }) as const;

/** A `… delete` command: it prints the id it deleted (`{"deleted":"api_…"}`). */
const deletion = (shown: string, prefix: string, summary: string) =>
  ({ synopsis: byId(shown), summary, details: [`Prints {"deleted":"${prefix}_…"}.`] }) as const;

/** A `… list` command: it prints the organization's items, oldest first. */
const listing = (summary: string, item: string, more = '') =>
  ({ synopsis: [ORG], summary, details: [`Prints {"data":[${item}…]}, oldest first${more}.`] }) as const;

/** What an API resource has besides its identifier and name: given to create, changed by update. */
const RESOURCE_SETTINGS = [
  optional(repeated('scope', 'NAME=DESCRIPTION')),
  optional(value('ttl', 'SECONDS')),
] as const;

/** What a role has besides its name: given to create, changed by update. */
const ROLE_SETTINGS = [
  optional(value('description', 'D')),
  optional(repeated('permission', 'IDENTIFIER#SCOPE')),
] as const;

/** Which users a connection signs in and makes: given to create, changed by update. */
const CONNECTION_USERS = [
  optional(repeated('domain', 'D')),
  negatable('jit'),
  negatable('jit-any-domain'),
  optional(repeated('default-role', 'ROLE_ID')),
] as const;

/** An OIDC connection's settings besides its issuer and client: given to create, changed by update. */
const OIDC_SETTINGS = [
  optional(repeated('scope', 'SCOPE')),
  optional(value('hosted-domain', 'D')),
  optional(repeated('allowed-endpoint-host', 'HOST')),
  negatable('accept-id-jag'),
] as const;

/** The splunk_hec and datadog settings of a log stream (datadog's --gzip aside): create's and update's. */
const STREAM_SETTINGS = [
  optional(value('index', 'I')),
  optional(value('source', 'S')),
  optional(value('sourcetype', 'T')),
  optional(value('service', 'S')),
  optional(value('ddsource', 'S')),
  optional(value('ddtags', 'TAGS')),
] as const;

/** What a trusted app's clients may ask for: given to create, changed by update. */
const TRUSTED_APP_GRANTS = [
  optional(repeated('resource', 'URI')),
  optional(repeated('scope', 'SCOPE')),
] as const;

/**
 * Every command of DESIGN §8, declared once: the one source of `tessera --help`, of
 * `tessera <command> --help` and of the flags each command accepts (USAGES).
 */
const DECLARED = {
  serve: {
    synopsis: [optional(value('port', 'N'))],
    summary: 'migrate, then serve HTTP and deliver webhooks',
    details: [
      'Every line it writes is a JSON log line on stdout: start-up, warnings, requests, shutdown.',
      'On a fresh data dir with a loopback TESSERA_URL it seeds a demo organization and writes its',
      'credentials to <data dir>/demo-credentials.json. --port overrides PORT. Stops on SIGINT/SIGTERM.',
    ],
  },
  migrate: {
    synopsis: [],
    summary: 'bring the database schema up to date',
    details: ['Prints {"applied":[…]}: the migrations it ran (none when the schema was up to date).'],
  },
  worker: {
    synopsis: [optional(value('concurrency', 'N'))],
    summary:
      'migrate, then deliver webhooks, back-channel logout tokens and audit-log streams without serving HTTP',
    details: [
      'Run as many as you like beside `tessera serve` on one database. Every line it writes is a JSON',
      'log line on stdout. --concurrency (1 to 1000, default 32) caps deliveries in flight.',
    ],
  },
  backup: {
    synopsis: [],
    summary: 'copy the SQLite database to FILE while it serves',
    details: [
      'An online backup of <data dir>/tessera.db into FILE (never overwritten); prints {"file","bytes"}.',
      'Restore: stop the server, put FILE at <data dir>/tessera.db, start it with the same TESSERA_SECRET.',
      'On PostgreSQL (DATABASE_URL) use pg_dump instead: see docs/deploying.md.',
    ],
    positional: 'FILE',
  },
  'org create': {
    synopsis: [
      value('slug', 'S'),
      optional(value('name', 'N')),
      value('owner-email', 'E'),
      optional(value('owner-password', 'P')),
    ],
    summary: 'create an organization and its owner',
    details: [
      'The owner is a console user; a new one needs --owner-password.',
      'Prints {"id","slug","name","issuer","owner":{"id","email"}}.',
    ],
  },
  'org update': {
    synopsis: [
      ORG,
      optional(value('require-mfa', 'true|false')),
      optional(value('dynamic-registration', 'true|false')),
      optional(value('metadata-documents', 'true|false')),
      optional(value('sign-up', 'open|invite_only|domains')),
      optional(repeated('sign-up-domain', 'D')),
      optional(value('id-token-signing-alg', 'RS256|ES256|PS256')),
      optional(value('display-name', 'N')),
      optional(value('primary-colour', '#hex')),
      optional(value('background-colour', '#hex')),
      optional(value('terms-url', 'U')),
      optional(value('privacy-url', 'U')),
      optional(value('logo', 'FILE')),
      optional(value('favicon', 'FILE')),
    ],
    summary:
      "change the organization's second-factor rule, its issuer's registration, its sign-up policy or its ID-token signing algorithm",
    details: [
      'Give at least one change. --require-mfa true requires a second factor of every user.',
      '--dynamic-registration: its issuer offers POST /oauth/register (RFC 7591); --metadata-documents: it',
      'accepts Client ID Metadata Document URLs as client ids. Both are off for a new organization.',
      '--sign-up: open (anyone), invite_only (no "Create an account"), domains (addresses at the',
      '--sign-up-domain domains only; give them with it).',
      '--id-token-signing-alg: what ID tokens, logout tokens and signed userinfo are signed with (RS256 by',
      'default); its keys are made at once and published beside the RS256 ones. Access tokens stay RS256.',
      'Branding (docs/branding.md): --display-name, --primary-colour and --background-colour (hex, refused',
      'below WCAG AA contrast), --terms-url and --privacy-url (https), --logo and --favicon (PNG, JPEG or WebP',
      'files, at most 256 KB); an empty value removes the field.',
      'Prints {"id","slug","requireMfa","dynamicRegistration","metadataDocuments","signUp","signUpDomains","idTokenSigningAlg"},',
      'with "branding" when a branding flag is given.',
    ],
  },
  'user create': {
    synopsis: [
      ORG,
      value('email', 'E'),
      value('password', 'P'),
      optional(value('first-name', 'F')),
      optional(value('last-name', 'L')),
    ],
    summary: 'create a user of the organization, with a tenant of their own',
    details: ['Prints {"id","email","tenantId"}.'],
  },
  'client create': {
    synopsis: [
      ORG,
      value('name', 'N'),
      either(toggle('confidential'), toggle('public')),
      optional(repeated('redirect-uri', 'U')),
      optional(repeated('post-logout-redirect-uri', 'U')),
      optional(repeated('allowed-origin', 'O')),
      optional(repeated('grant', 'G')),
      optional(repeated('promote-from', 'CLIENT_ID')),
      optional(value('jwks-uri', 'U')),
      optional(value('request-object-signing-alg', 'A')),
      optional(value('backchannel-logout-uri', 'U'), optional(toggle('backchannel-logout-session-required'))),
      optional(
        value('frontchannel-logout-uri', 'U'),
        optional(toggle('frontchannel-logout-session-required')),
      ),
    ],
    summary: 'create an OAuth client',
    details: [
      'Prints {"clientId","clientSecret"?,"redirectUris","postLogoutRedirectUris"?,"allowedOrigins"?,',
      '"grantTypes","jwksUri"?,"requestObjectSigningAlg"?,"backchannelLogoutUri"?,"backchannelLogoutSessionRequired"?,',
      '"frontchannelLogoutUri"?,"frontchannelLogoutSessionRequired"?}; the secret (confidential clients only) is shown this once.',
      '--backchannel-logout-uri receives a logout token when a session of the client ends, --frontchannel-logout-uri',
      'is framed by the sign-out page (https, or http on loopback); --…-session-required adds iss and sid. --post-logout-redirect-uri',
      'registers where sign-out (/oauth/logout) may return to. --allowed-origin (scheme://host[:port])',
      'lists the browser origins CORS answers; without it, the origins of the redirect URIs. --jwks-uri',
      "(confidential only) is the https URL of the client's public keys for private_key_jwt.",
      '--request-object-signing-alg is the one algorithm its request objects must use: none (unsigned, any',
      'client), or a signing one (confidential only); without it, any signed one.',
    ],
  },
  'resource list': listing(
    "list the organization's API resources",
    '{"id","identifier","name","scopes","accessTokenTtl"}',
  ),
  'resource create': {
    synopsis: [ORG, value('identifier', 'URI'), value('name', 'N'), ...RESOURCE_SETTINGS],
    summary: 'register an API resource (an RFC 8707 resource indicator) with its scopes',
    details: [
      'Prints the resource. --identifier: https (http on loopback), no fragment; it never changes.',
      '--ttl: access token lifetime, 60 to 86400 seconds (default 900).',
    ],
  },
  'resource show': showing('API_ID', 'show one API resource', 'resource'),
  'resource update': {
    synopsis: byId('API_ID', optional(value('name', 'N')), ...RESOURCE_SETTINGS),
    summary: "change an API resource's name, scopes or token lifetime",
    details: ['Prints the resource. --scope replaces every scope; a scope removed leaves roles and clients.'],
  },
  'resource delete': deletion('API_ID', 'api', 'delete an API resource and every permission naming it'),
  'role list': listing(
    "list the roles of the organization's users",
    '{"id","name","description","permissions"}',
  ),
  'role create': {
    synopsis: [ORG, value('name', 'N'), ...ROLE_SETTINGS],
    summary: 'create a role with permissions',
    details: ['Prints the role. Each --permission names a registered resource and one of its scopes.'],
  },
  'role show': showing('ROLE_ID', 'show one role', 'role'),
  'role update': {
    synopsis: byId('ROLE_ID', optional(value('name', 'N')), ...ROLE_SETTINGS),
    summary: "change a role's name, description or permissions",
    details: ['Prints the role. --permission replaces every permission of the role.'],
  },
  'role delete': deletion('ROLE_ID', 'rol', 'delete a role; its users lose it'),
  'user roles': {
    synopsis: [ORG, value('user', 'USER_ID'), optional(value('set', 'ROLE_ID,...'))],
    summary: 'show (or, with --set, replace) the roles a user holds',
    details: ['Prints {"data":[role…]}. --set "" removes every role.'],
  },
  'client permissions': {
    synopsis: [ORG, value('client', 'CLIENT_ID'), optional(value('set', 'IDENTIFIER#SCOPE,...'))],
    summary: "show (or, with --set, replace) a machine client's permissions",
    details: [
      'Prints {"data":[{"resource","scope"}…]}. Confidential clients only. --set "" removes them all.',
    ],
  },
  'member add': {
    synopsis: [ORG, value('email', 'E'), value('role', 'owner|member'), optional(value('password', 'P'))],
    summary: 'add a console user to the organization (or change their role)',
    details: [
      'Creates the console user when new; then --password is required.',
      'Prints {"orgId","userId","email","role"}.',
    ],
  },
  'service-account create': {
    synopsis: [ORG, value('name', 'N'), repeated('scope', 'org:read|events:read|org:write')],
    summary: 'create a service account for the management API of the organization',
    details: [
      'A confidential client of the console bound to the organization, whose client_credentials token',
      '(from the console issuer) carries the --scope scopes (one or more). Prints {"clientId",',
      '"clientSecret","name","scopes","tokenEndpoint"}; the secret is shown this once.',
    ],
  },
  'service-account list': {
    synopsis: [ORG],
    summary: "list the organization's service accounts",
    details: [
      'Prints {"serviceAccounts":[{"clientId","name","scopes","createdAt"}]} (up to 100, never a secret).',
    ],
  },
  'service-account rotate-secret': {
    synopsis: [ORG, value('client-id', 'C')],
    summary: 'give a service account a new secret; the old one stops working',
    details: ['Prints {"clientId","clientSecret"}; the secret is shown this once.'],
  },
  'service-account delete': {
    synopsis: [ORG, value('client-id', 'C')],
    summary: 'delete a service account; its tokens stop working',
    details: ['Prints {"clientId","deleted":true}.'],
  },
  'invitation create': {
    synopsis: [
      ORG,
      value('email', 'E'),
      optional(value('role', 'owner|member')),
      optional(repeated('role-id', 'rol_…')),
      optional(toggle('mail')),
    ],
    summary: 'invite an address to the organization (nobody is added before accepting)',
    details: [
      'Without --role: to be a user of the organization (its hosted pages). With --role: to be a console',
      'member of it with that role (accepted on the console). --role-id (user invitations only) names an',
      'end-user role of the organization the invitee holds once accepted. --mail mails the one-time link;',
      'without it the link is printed, to pass on. The link works once, for 7 days.',
      'Prints {"id","kind","email","role","roles","state","expiresAt","url"?}.',
    ],
  },
  'invitation list': {
    synopsis: [
      ORG,
      optional(value('kind', 'user|member')),
      optional(value('state', 'pending|accepted|expired')),
    ],
    summary: "list the organization's invitations, newest first (never their links)",
    details: [
      'Prints {"invitations":[{"id","kind","email","role","roles","state","expiresAt","acceptedAt"}]}.',
    ],
  },
  'invitation revoke': {
    synopsis: byId('inv_…'),
    summary: 'withdraw an invitation: its link stops working',
    details: ['Prints {"id","revoked":true}.'],
  },
  'keys rotate': {
    synopsis: [ORG],
    summary: "rotate the organization's signing key",
    details: ['Prints {"kid"}: new tokens carry it; tokens signed before still verify.'],
  },
  'connection create': {
    synopsis: [
      ORG,
      value('type', 'oidc|saml'),
      value('name', 'N'),
      ...CONNECTION_USERS,
      optional(value('issuer', 'URL'), value('client-id', 'C'), ...OIDC_SETTINGS),
      optional(
        either(
          value('metadata-file', 'FILE'),
          all(value('entity-id', 'E'), value('sso-url', 'URL'), value('certificate-file', 'FILE')),
        ),
      ),
    ],
    summary: 'add an enterprise sign-in connection (OIDC or SAML) to the organization',
    details: [
      'oidc: --issuer (its configuration is found by discovery) and --client-id; the client secret is read',
      'from stdin (a pipe or a file), or asked for at a prompt that does not echo it: never a flag. --scope',
      "defaults to openid email profile. --allowed-endpoint-host: a host besides the issuer's own that its",
      'discovery document may name as an endpoint (Google: oauth2.googleapis.com and others; see',
      'docs/enterprise-sign-in.md). saml: the IdP metadata XML in --metadata-file, or --entity-id,',
      '--sso-url and the signing certificate (PEM) in --certificate-file. --domain: an email domain the',
      'connection claims; --jit creates a user on first sign-in, at an address in its domains only unless',
      '--jit-any-domain (never in a domain another connection claims); --default-role: a role id they are',
      "given. --hosted-domain (oidc, Google Workspace): the domain every ID token's hd claim must name.",
      '--accept-id-jag (oidc): take the ID-JAGs this provider signs at the jwt-bearer grant, for users',
      'linked through the connection (docs/enterprise-managed-authorization.md).',
      'Prints the connection with the URLs to give the provider: "callbackUrl" (oidc), or "acsUrl",',
      '"spEntityId" and "spMetadataUrl" (saml). Never the secret.',
    ],
  },
  'connection list': listing(
    "list the organization's enterprise sign-in connections",
    'connection',
    ', each as `connection show` prints it',
  ),
  'connection show': {
    synopsis: byId('CON_ID'),
    summary: 'show one connection and the URLs to give its provider',
    details: [
      'Prints {"id","type","name","domains","jit","jitAnyDomain","defaultRoles","oidc"|"saml",',
      '"callbackUrl" (oidc) | "acsUrl","spEntityId","spMetadataUrl" (saml),"createdAt","updatedAt"}.',
    ],
  },
  'connection update': {
    synopsis: byId(
      'CON_ID',
      optional(value('name', 'N')),
      ...CONNECTION_USERS,
      optional(value('issuer', 'URL')),
      optional(value('client-id', 'C')),
      optional(toggle('new-client-secret')),
      ...OIDC_SETTINGS,
      optional(
        either(
          value('metadata-file', 'FILE'),
          all(
            optional(value('entity-id', 'E')),
            optional(value('sso-url', 'URL')),
            optional(value('certificate-file', 'FILE')),
          ),
        ),
      ),
    ),
    summary: "change a connection's settings (its type stays)",
    details: [
      'Prints the connection. A repeatable flag replaces the whole list; --domain "" (or --default-role "")',
      'empties it. --new-client-secret reads a new OIDC client secret as create does (stdin or a prompt).',
      '--hosted-domain "" stops checking the hd claim.',
    ],
  },
  'connection delete': deletion('CON_ID', 'con', 'delete a connection; its users stay, unlinked'),
  'directory create': {
    synopsis: [ORG, value('name', 'N'), optional(value('connection', 'CON_ID'))],
    summary: 'add a SCIM directory to the organization; prints its bearer token, once',
    details: [
      'Prints {"id","name","connection","scimBaseUrl","createdAt","updatedAt","token"}: give the identity',
      'provider scimBaseUrl and the token; the token is stored as a hash and never shown again.',
      "--connection: the directory creates users only in that connection's domains, and its sign-in links them.",
    ],
  },
  'directory list': listing("list the organization's SCIM directories (never their tokens)", 'directory'),
  'directory rotate-token': {
    synopsis: byId('DIR_ID'),
    summary: 'give a SCIM directory a new token; the old one stops working at once',
    details: ['Prints the directory with its new "token", shown only here.'],
  },
  'directory delete': deletion(
    'DIR_ID',
    'dir',
    'delete a SCIM directory; its token stops working, its users stay',
  ),
  'log-stream create': {
    synopsis: [
      ORG,
      value('type', 'https|splunk_hec|datadog'),
      value('name', 'N'),
      optional(value('url', 'URL')),
      optional(value('backfill-from', 'TIME')),
      ...STREAM_SETTINGS,
      optional(toggle('gzip')),
    ],
    summary: "stream the organization's audit log to a SIEM (HTTPS, Splunk HEC or Datadog)",
    details: [
      'Every audit entry from --backfill-from on (an ISO date or date-time with a zone; default: now) is',
      "sent in order, at least once, each with its id. --url: https, no credentials (datadog: the site's",
      'logs intake, default https://http-intake.logs.datadoghq.com). splunk_hec: the HEC token, and',
      'datadog: the API key, are read from stdin (a pipe or a file), or asked for at a prompt that does',
      'not echo them: never a flag; stored encrypted, never shown again. --index, --source, --sourcetype',
      'are splunk_hec settings; --service, --ddsource, --ddtags, --gzip datadog ones.',
      'Prints the stream as `log-stream show` does; an https stream\'s Standard Webhooks "secret" is',
      'shown this once.',
    ],
  },
  'log-stream list': listing(
    "list the organization's log streams with their health (never their secrets)",
    'stream',
    ', each as `log-stream show` prints it',
  ),
  'log-stream show': {
    synopsis: byId('LST_ID'),
    summary: 'show one log stream: its settings, status, last error and lag',
    details: [
      'Prints {"id","name","type","url","settings","active","backfillFrom","status","lastError",',
      '"lastErrorAt","lastSentAt","sentEntries","lag":{"entries","oldestUnsentAt"},"createdAt","updatedAt"}.',
      'status: active, failing (retried with backoff) or paused. Never a secret.',
    ],
  },
  'log-stream update': {
    synopsis: byId(
      'LST_ID',
      optional(value('name', 'N')),
      optional(value('url', 'URL')),
      optional(either(toggle('pause'), toggle('resume'))),
      optional(toggle('new-secret')),
      ...STREAM_SETTINGS,
      negatable('gzip'),
    ),
    summary: 'change a log stream (its type and its place in the audit log stay)',
    details: [
      'Prints the stream. --pause stops sending; --resume goes on from the entry after the last one',
      'accepted. --new-secret reads a new HEC token (splunk_hec) or API key (datadog) as create does.',
      'A new URL or secret, or resuming, retries at once.',
    ],
  },
  'log-stream delete': deletion('LST_ID', 'lst', 'delete a log stream; nothing more is sent to it'),
  'trusted-app list': listing(
    'list the apps the organization issues ID-JAGs for (Enterprise-Managed Authorization)',
    'trusted app',
  ),
  'trusted-app create': {
    synopsis: [
      ORG,
      value('name', 'N'),
      value('audience', 'ISSUER'),
      value('target-client-id', 'C'),
      repeated('client', 'CLIENT_ID'),
      ...TRUSTED_APP_GRANTS,
    ],
    summary: "let some of the organization's clients get ID-JAGs for a target authorization server",
    details: [
      'Prints the trusted app {"id","name","audience","targetClientId","clientIds","resources","scopes"}.',
      "--audience: the target authorization server's issuer (the ID-JAG's aud); --target-client-id: the id",
      "it knows the clients by (the ID-JAG's client_id); --client: a confidential client of the org that",
      'may ask; --resource and --scope: what they may ask for (docs/enterprise-managed-authorization.md).',
    ],
  },
  'trusted-app show': showing('TAP_ID', 'show one trusted app', 'trusted app'),
  'trusted-app update': {
    synopsis: byId(
      'TAP_ID',
      optional(value('name', 'N')),
      optional(value('audience', 'ISSUER')),
      optional(value('target-client-id', 'C')),
      optional(repeated('client', 'CLIENT_ID')),
      ...TRUSTED_APP_GRANTS,
    ),
    summary: 'change a trusted app',
    details: ['Prints the trusted app. A repeatable flag replaces the whole list; --resource "" empties it.'],
  },
  'trusted-app delete': deletion('TAP_ID', 'tap', 'delete a trusted app: no more ID-JAGs for it'),
  'domain add': {
    synopsis: [ORG, value('name', 'HOST')],
    summary: "add one of the organization's own domains: prints the TXT record that proves it",
    details: [
      'Prints the domain {"id","name","verified","primary","txtRecord":{"name","type","value"}}.',
      'Create the TXT record _tessera-challenge.HOST with the value shown, then run `tessera domain verify`.',
    ],
  },
  'domain list': listing("list the organization's own domains", 'domain'),
  'domain verify': {
    synopsis: byId('DOM_ID'),
    summary:
      "look the domain's TXT record up (TESSERA_DNS_SERVERS) and mark it verified when it holds the token",
    details: [
      'Prints the domain. A missing or wrong record, or DNS that does not answer, is an error: fix it and run again.',
    ],
  },
  'domain primary': {
    synopsis: byId('DOM_ID', optional(either(toggle('on'), toggle('off')))),
    summary:
      "move the organization's issuer onto this verified domain (--on, the default) or back off it (--off)",
    details: [
      'Prints the domain. The host the issuer leaves serves discovery, the key set and introspection until',
      'the last token it issued has expired, and redirects its pages to the new host.',
    ],
  },
  'domain delete': deletion('DOM_ID', 'dom', 'delete a domain (not the one the issuer lives on)'),
} as const satisfies Record<string, Declared>;

type Usages = {
  readonly [N in keyof typeof DECLARED]: (typeof DECLARED)[N] & {
    readonly flags: SpecOf<(typeof DECLARED)[N]['synopsis']>;
  };
};

/** Every command with the flags its synopsis names, typed: what the parser takes (args.ts parseFlags). */
export const USAGES = Object.fromEntries(
  Object.entries(DECLARED).map(([name, declared]) => [
    name,
    { ...declared, flags: specOf(declared.synopsis) },
  ]),
) as unknown as Usages;

export type CommandName = keyof typeof USAGES;

/** The commands `N` names, each turning the flags its synopsis declares into its launch. */
export type Commands<N extends CommandName> = {
  [C in N]: (f: Values<(typeof USAGES)[C]['flags']>) => Launch;
};

const NAMES = Object.keys(USAGES) as CommandName[];

/** The command groups (`org`, `user`, …): the first word of the commands that have two. */
export const GROUPS: readonly string[] = [
  ...new Set(NAMES.filter((n) => n.includes(' ')).map((n) => n.split(' ')[0] as string)),
];

/** The group `word` names (`tessera org …`), or null. */
export function groupOf(word: string | undefined): string | null {
  return word !== undefined && GROUPS.includes(word) ? word : null;
}

/** The command `argv` starts with (one or two words), or null. */
export function commandOf(argv: readonly string[]): CommandName | null {
  const two = `${argv[0]} ${argv[1]}`;
  if (NAMES.includes(two as CommandName)) return two as CommandName;
  return NAMES.includes(argv[0] as CommandName) ? (argv[0] as CommandName) : null;
}

/** `tessera <command>`, its flags and its positional word. */
function line(name: CommandName): string {
  const usage: Declared = USAGES[name];
  const words = [renderSynopsis(usage.synopsis), usage.positional ?? ''].filter((w) => w !== '');
  return [`tessera ${name}`, ...words].join(' ');
}

/** `tessera --help`: every command with its usage line. */
export function globalUsage(): string {
  const commands = NAMES.map((name) => `  ${line(name)}\n      ${USAGES[name].summary}`);
  return [
    'usage: tessera <command> [flags]',
    '',
    ...commands,
    '',
    '`tessera <command> --help` describes one command; `tessera <group> --help` lists the commands of',
    `a group (${GROUPS.join(', ')}); \`tessera --version\` prints the version.`,
    '--org takes a slug, an org_… id, or `console`. Configuration comes from the environment (see README).',
    '',
  ].join('\n');
}

/** What an unknown command gets instead of the whole usage: every command's name, wrapped to 100 columns. */
export function commandNames(): string {
  const lines: string[] = [];
  let current = 'commands:';
  for (const [i, name] of NAMES.entries()) {
    const word = `${name}${i < NAMES.length - 1 ? ',' : ''}`;
    if (current.length + 1 + word.length > 100) {
      lines.push(current);
      current = ' ';
    }
    current += ` ${word}`;
  }
  lines.push(current);
  return [
    ...lines,
    '`tessera --help` shows how to call each; `tessera <command> --help` describes one.',
    '',
  ].join('\n');
}

/** `tessera <group> --help`: the group's commands with their usage lines. */
export function groupUsage(group: string): string {
  const names = NAMES.filter((n) => n.startsWith(`${group} `));
  return [
    `usage: tessera ${group} <command> [flags]`,
    '',
    ...names.map((name) => `  ${line(name)}\n      ${USAGES[name].summary}`),
    '',
    `\`tessera ${group} <command> --help\` describes one command.`,
    '',
  ].join('\n');
}

/** `tessera <command> --help`. */
export function commandUsage(name: CommandName): string {
  const usage = USAGES[name];
  return [
    `usage: ${line(name)}`,
    '',
    `${usage.summary[0]?.toUpperCase()}${usage.summary.slice(1)}.`,
    ...usage.details,
    '',
  ].join('\n');
}
