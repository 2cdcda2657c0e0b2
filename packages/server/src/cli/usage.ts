import type { Spec } from './args.js';

interface Usage {
  /** The flags, as written after `tessera <command>`. */
  readonly synopsis: string;
  /** One line for the list of commands. */
  readonly summary: string;
  /** What `tessera <command> --help` adds: what it prints, what it needs. */
  readonly details: readonly string[];
  readonly flags: Spec;
  /** The one word the command takes besides its flags (`tessera backup FILE`), if any. */
  readonly positional?: string;
}

/**
 * Every command of DESIGN §8 with its usage: the one source of `tessera --help`, of
 * `tessera <command> --help` and of the flags each command accepts.
 */
export const USAGES = {
  serve: {
    synopsis: '[--port N]',
    summary: 'migrate, then serve HTTP and deliver webhooks',
    details: [
      'Every line it writes is a JSON log line on stdout: start-up, warnings, requests, shutdown.',
      'On a fresh data dir with a loopback TESSERA_URL it seeds a demo organization and writes its',
      'credentials to <data dir>/demo-credentials.json. --port overrides PORT. Stops on SIGINT/SIGTERM.',
    ],
    flags: { port: { type: 'string' } },
  },
  migrate: {
    synopsis: '',
    summary: 'bring the database schema up to date',
    details: ['Prints {"applied":[…]}: the migrations it ran (none when the schema was up to date).'],
    flags: {},
  },
  worker: {
    synopsis: '[--concurrency N]',
    summary:
      'migrate, then deliver webhooks, back-channel logout tokens and audit-log streams without serving HTTP',
    details: [
      'Run as many as you like beside `tessera serve` on one database. Every line it writes is a JSON',
      'log line on stdout. --concurrency (1 to 1000, default 32) caps deliveries in flight.',
    ],
    flags: { concurrency: { type: 'string' } },
  },
  backup: {
    synopsis: 'FILE',
    summary: 'copy the SQLite database to FILE while it serves',
    details: [
      'An online backup of <data dir>/tessera.db into FILE (never overwritten); prints {"file","bytes"}.',
      'Restore: stop the server, put FILE at <data dir>/tessera.db, start it with the same TESSERA_SECRET.',
      'On PostgreSQL (DATABASE_URL) use pg_dump instead: see docs/deploying.md.',
    ],
    flags: {},
    positional: 'FILE',
  },
  'org create': {
    synopsis: '--slug S [--name N] --owner-email E [--owner-password P]',
    summary: 'create an organization and its owner',
    details: [
      'The owner is a console user; a new one needs --owner-password.',
      'Prints {"id","slug","name","issuer","owner":{"id","email"}}.',
    ],
    flags: {
      slug: { type: 'string' },
      name: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-password': { type: 'string' },
    },
  },
  'org update': {
    synopsis:
      '--org S [--require-mfa true|false] [--dynamic-registration true|false] [--metadata-documents true|false] [--sign-up open|invite_only|domains] [--sign-up-domain D]... [--id-token-signing-alg RS256|ES256|PS256] [--display-name N] [--primary-colour #hex] [--background-colour #hex] [--terms-url U] [--privacy-url U] [--logo FILE] [--favicon FILE]',
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
    flags: {
      org: { type: 'string' },
      'display-name': { type: 'string' },
      'primary-colour': { type: 'string' },
      'background-colour': { type: 'string' },
      'terms-url': { type: 'string' },
      'privacy-url': { type: 'string' },
      logo: { type: 'string' },
      favicon: { type: 'string' },
      'require-mfa': { type: 'string' },
      'dynamic-registration': { type: 'string' },
      'metadata-documents': { type: 'string' },
      'sign-up': { type: 'string' },
      'sign-up-domain': { type: 'string', multiple: true },
      'id-token-signing-alg': { type: 'string' },
    },
  },
  'user create': {
    synopsis: '--org S --email E --password P [--first-name F] [--last-name L]',
    summary: 'create a user of the organization, with a tenant of their own',
    details: ['Prints {"id","email","tenantId"}.'],
    flags: {
      org: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
    },
  },
  'client create': {
    synopsis:
      '--org S --name N (--confidential | --public) [--redirect-uri U]... [--post-logout-redirect-uri U]... [--allowed-origin O]... [--grant G]... [--promote-from CLIENT_ID]... [--jwks-uri U] [--request-object-signing-alg A] [--backchannel-logout-uri U [--backchannel-logout-session-required]] [--frontchannel-logout-uri U [--frontchannel-logout-session-required]]',
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
    flags: {
      org: { type: 'string' },
      name: { type: 'string' },
      confidential: { type: 'boolean' },
      public: { type: 'boolean' },
      'redirect-uri': { type: 'string', multiple: true },
      'post-logout-redirect-uri': { type: 'string', multiple: true },
      'allowed-origin': { type: 'string', multiple: true },
      grant: { type: 'string', multiple: true },
      'promote-from': { type: 'string', multiple: true },
      'jwks-uri': { type: 'string' },
      'request-object-signing-alg': { type: 'string' },
      'backchannel-logout-uri': { type: 'string' },
      'backchannel-logout-session-required': { type: 'boolean' },
      'frontchannel-logout-uri': { type: 'string' },
      'frontchannel-logout-session-required': { type: 'boolean' },
    },
  },
  'resource list': {
    synopsis: '--org S',
    summary: "list the organization's API resources",
    details: ['Prints {"data":[{"id","identifier","name","scopes","accessTokenTtl"}…]}, oldest first.'],
    flags: { org: { type: 'string' } },
  },
  'resource create': {
    synopsis: '--org S --identifier URI --name N [--scope NAME=DESCRIPTION]... [--ttl SECONDS]',
    summary: 'register an API resource (an RFC 8707 resource indicator) with its scopes',
    details: [
      'Prints the resource. --identifier: https (http on loopback), no fragment; it never changes.',
      '--ttl: access token lifetime, 60 to 86400 seconds (default 900).',
    ],
    flags: {
      org: { type: 'string' },
      identifier: { type: 'string' },
      name: { type: 'string' },
      scope: { type: 'string', multiple: true },
      ttl: { type: 'string' },
    },
  },
  'resource show': {
    synopsis: '--org S --id API_ID',
    summary: 'show one API resource',
    details: ['Prints the resource.'],
    flags: { org: { type: 'string' }, id: { type: 'string' } },
  },
  'resource update': {
    synopsis: '--org S --id API_ID [--name N] [--scope NAME=DESCRIPTION]... [--ttl SECONDS]',
    summary: "change an API resource's name, scopes or token lifetime",
    details: ['Prints the resource. --scope replaces every scope; a scope removed leaves roles and clients.'],
    flags: {
      org: { type: 'string' },
      id: { type: 'string' },
      name: { type: 'string' },
      scope: { type: 'string', multiple: true },
      ttl: { type: 'string' },
    },
  },
  'resource delete': {
    synopsis: '--org S --id API_ID',
    summary: 'delete an API resource and every permission naming it',
    details: ['Prints {"deleted":"api_…"}.'],
    flags: { org: { type: 'string' }, id: { type: 'string' } },
  },
  'role list': {
    synopsis: '--org S',
    summary: "list the roles of the organization's users",
    details: ['Prints {"data":[{"id","name","description","permissions"}…]}, oldest first.'],
    flags: { org: { type: 'string' } },
  },
  'role create': {
    synopsis: '--org S --name N [--description D] [--permission IDENTIFIER#SCOPE]...',
    summary: 'create a role with permissions',
    details: ['Prints the role. Each --permission names a registered resource and one of its scopes.'],
    flags: {
      org: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      permission: { type: 'string', multiple: true },
    },
  },
  'role show': {
    synopsis: '--org S --id ROLE_ID',
    summary: 'show one role',
    details: ['Prints the role.'],
    flags: { org: { type: 'string' }, id: { type: 'string' } },
  },
  'role update': {
    synopsis: '--org S --id ROLE_ID [--name N] [--description D] [--permission IDENTIFIER#SCOPE]...',
    summary: "change a role's name, description or permissions",
    details: ['Prints the role. --permission replaces every permission of the role.'],
    flags: {
      org: { type: 'string' },
      id: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      permission: { type: 'string', multiple: true },
    },
  },
  'role delete': {
    synopsis: '--org S --id ROLE_ID',
    summary: 'delete a role; its users lose it',
    details: ['Prints {"deleted":"rol_…"}.'],
    flags: { org: { type: 'string' }, id: { type: 'string' } },
  },
  'user roles': {
    synopsis: '--org S --user USER_ID [--set ROLE_ID,...]',
    summary: 'show (or, with --set, replace) the roles a user holds',
    details: ['Prints {"data":[role…]}. --set "" removes every role.'],
    flags: { org: { type: 'string' }, user: { type: 'string' }, set: { type: 'string' } },
  },
  'client permissions': {
    synopsis: '--org S --client CLIENT_ID [--set IDENTIFIER#SCOPE,...]',
    summary: "show (or, with --set, replace) a machine client's permissions",
    details: [
      'Prints {"data":[{"resource","scope"}…]}. Confidential clients only. --set "" removes them all.',
    ],
    flags: { org: { type: 'string' }, client: { type: 'string' }, set: { type: 'string' } },
  },
  'member add': {
    synopsis: '--org S --email E --role owner|member [--password P]',
    summary: 'add a console user to the organization (or change their role)',
    details: [
      'Creates the console user when new; then --password is required.',
      'Prints {"orgId","userId","email","role"}.',
    ],
    flags: {
      org: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      password: { type: 'string' },
    },
  },
  'service-account create': {
    synopsis: '--org S --name N --scope org:read|events:read|org:write...',
    summary: 'create a service account for the management API of the organization',
    details: [
      'A confidential client of the console bound to the organization, whose client_credentials token',
      '(from the console issuer) carries the --scope scopes (one or more). Prints {"clientId",',
      '"clientSecret","name","scopes","tokenEndpoint"}; the secret is shown this once.',
    ],
    flags: { org: { type: 'string' }, name: { type: 'string' }, scope: { type: 'string', multiple: true } },
  },
  'service-account list': {
    synopsis: '--org S',
    summary: "list the organization's service accounts",
    details: [
      'Prints {"serviceAccounts":[{"clientId","name","scopes","createdAt"}]} (up to 100, never a secret).',
    ],
    flags: { org: { type: 'string' } },
  },
  'service-account rotate-secret': {
    synopsis: '--org S --client-id C',
    summary: 'give a service account a new secret; the old one stops working',
    details: ['Prints {"clientId","clientSecret"}; the secret is shown this once.'],
    flags: { org: { type: 'string' }, 'client-id': { type: 'string' } },
  },
  'service-account delete': {
    synopsis: '--org S --client-id C',
    summary: 'delete a service account; its tokens stop working',
    details: ['Prints {"clientId","deleted":true}.'],
    flags: { org: { type: 'string' }, 'client-id': { type: 'string' } },
  },
  'invitation create': {
    synopsis: '--org S --email E [--role owner|member] [--role-id rol_…]... [--mail]',
    summary: 'invite an address to the organization (nobody is added before accepting)',
    details: [
      'Without --role: to be a user of the organization (its hosted pages). With --role: to be a console',
      'member of it with that role (accepted on the console). --role-id (user invitations only) names an',
      'end-user role of the organization the invitee holds once accepted. --mail mails the one-time link;',
      'without it the link is printed, to pass on. The link works once, for 7 days.',
      'Prints {"id","kind","email","role","roles","state","expiresAt","url"?}.',
    ],
    flags: {
      org: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      'role-id': { type: 'string', multiple: true },
      mail: { type: 'boolean' },
    },
  },
  'invitation list': {
    synopsis: '--org S [--kind user|member] [--state pending|accepted|expired]',
    summary: "list the organization's invitations, newest first (never their links)",
    details: [
      'Prints {"invitations":[{"id","kind","email","role","roles","state","expiresAt","acceptedAt"}]}.',
    ],
    flags: {
      org: { type: 'string' },
      kind: { type: 'string' },
      state: { type: 'string' },
    },
  },
  'invitation revoke': {
    synopsis: '--org S --id inv_…',
    summary: 'withdraw an invitation: its link stops working',
    details: ['Prints {"id","revoked":true}.'],
    flags: {
      org: { type: 'string' },
      id: { type: 'string' },
    },
  },
  'keys rotate': {
    synopsis: '--org S',
    summary: "rotate the organization's signing key",
    details: ['Prints {"kid"}: new tokens carry it; tokens signed before still verify.'],
    flags: { org: { type: 'string' } },
  },
  'connection create': {
    synopsis:
      '--org S --type oidc|saml --name N [--domain D]... [--jit | --no-jit] [--jit-any-domain | --no-jit-any-domain] [--default-role ROLE_ID]... [--issuer URL --client-id C [--scope SCOPE]... [--hosted-domain D] [--allowed-endpoint-host HOST]... [--accept-id-jag]] [--metadata-file FILE | --entity-id E --sso-url URL --certificate-file FILE]',
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
    flags: {
      org: { type: 'string' },
      type: { type: 'string' },
      name: { type: 'string' },
      domain: { type: 'string', multiple: true },
      jit: { type: 'boolean' },
      'no-jit': { type: 'boolean' },
      'jit-any-domain': { type: 'boolean' },
      'no-jit-any-domain': { type: 'boolean' },
      'default-role': { type: 'string', multiple: true },
      issuer: { type: 'string' },
      'client-id': { type: 'string' },
      scope: { type: 'string', multiple: true },
      'hosted-domain': { type: 'string' },
      'allowed-endpoint-host': { type: 'string', multiple: true },
      'accept-id-jag': { type: 'boolean' },
      'no-accept-id-jag': { type: 'boolean' },
      'metadata-file': { type: 'string' },
      'entity-id': { type: 'string' },
      'sso-url': { type: 'string' },
      'certificate-file': { type: 'string' },
    },
  },
  'connection list': {
    synopsis: '--org S',
    summary: "list the organization's enterprise sign-in connections",
    details: ['Prints {"data":[connection…]}, oldest first, each as `connection show` prints it.'],
    flags: { org: { type: 'string' } },
  },
  'connection show': {
    synopsis: '--org S --id CON_ID',
    summary: 'show one connection and the URLs to give its provider',
    details: [
      'Prints {"id","type","name","domains","jit","jitAnyDomain","defaultRoles","oidc"|"saml",',
      '"callbackUrl" (oidc) | "acsUrl","spEntityId","spMetadataUrl" (saml),"createdAt","updatedAt"}.',
    ],
    flags: { org: { type: 'string' }, id: { type: 'string' } },
  },
  'connection update': {
    synopsis:
      '--org S --id CON_ID [--name N] [--domain D]... [--jit | --no-jit] [--jit-any-domain | --no-jit-any-domain] [--default-role ROLE_ID]... [--issuer URL] [--client-id C] [--new-client-secret] [--scope SCOPE]... [--hosted-domain D] [--allowed-endpoint-host HOST]... [--accept-id-jag | --no-accept-id-jag] [--metadata-file FILE | [--entity-id E] [--sso-url URL] [--certificate-file FILE]]',
    summary: "change a connection's settings (its type stays)",
    details: [
      'Prints the connection. A repeatable flag replaces the whole list; --domain "" (or --default-role "")',
      'empties it. --new-client-secret reads a new OIDC client secret as create does (stdin or a prompt).',
      '--hosted-domain "" stops checking the hd claim.',
    ],
    flags: {
      org: { type: 'string' },
      id: { type: 'string' },
      name: { type: 'string' },
      domain: { type: 'string', multiple: true },
      jit: { type: 'boolean' },
      'no-jit': { type: 'boolean' },
      'jit-any-domain': { type: 'boolean' },
      'no-jit-any-domain': { type: 'boolean' },
      'default-role': { type: 'string', multiple: true },
      issuer: { type: 'string' },
      'client-id': { type: 'string' },
      'new-client-secret': { type: 'boolean' },
      scope: { type: 'string', multiple: true },
      'hosted-domain': { type: 'string' },
      'allowed-endpoint-host': { type: 'string', multiple: true },
      'accept-id-jag': { type: 'boolean' },
      'no-accept-id-jag': { type: 'boolean' },
      'metadata-file': { type: 'string' },
      'entity-id': { type: 'string' },
      'sso-url': { type: 'string' },
      'certificate-file': { type: 'string' },
    },
  },
  'connection delete': {
    synopsis: '--org S --id CON_ID',
    summary: 'delete a connection; its users stay, unlinked',
    details: ['Prints {"deleted":"con_…"}.'],
    flags: { org: { type: 'string' }, id: { type: 'string' } },
  },
  'directory create': {
    synopsis: '--org S --name N [--connection CON_ID]',
    summary: 'add a SCIM directory to the organization; prints its bearer token, once',
    details: [
      'Prints {"id","name","connection","scimBaseUrl","createdAt","updatedAt","token"}: give the identity',
      'provider scimBaseUrl and the token; the token is stored as a hash and never shown again.',
      "--connection: the directory creates users only in that connection's domains, and its sign-in links them.",
    ],
    flags: { org: { type: 'string' }, name: { type: 'string' }, connection: { type: 'string' } },
  },
  'directory list': {
    synopsis: '--org S',
    summary: "list the organization's SCIM directories (never their tokens)",
    details: ['Prints {"data":[directory…]}, oldest first.'],
    flags: { org: { type: 'string' } },
  },
  'directory rotate-token': {
    synopsis: '--org S --id DIR_ID',
    summary: 'give a SCIM directory a new token; the old one stops working at once',
    details: ['Prints the directory with its new "token", shown only here.'],
    flags: { org: { type: 'string' }, id: { type: 'string' } },
  },
  'directory delete': {
    synopsis: '--org S --id DIR_ID',
    summary: 'delete a SCIM directory; its token stops working, its users stay',
    details: ['Prints {"deleted":"dir_…"}.'],
    flags: { org: { type: 'string' }, id: { type: 'string' } },
  },
  'log-stream create': {
    synopsis:
      '--org S --type https|splunk_hec|datadog --name N [--url URL] [--backfill-from TIME] [--index I] [--source S] [--sourcetype T] [--service S] [--ddsource S] [--ddtags TAGS] [--gzip]',
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
    flags: {
      org: { type: 'string' },
      type: { type: 'string' },
      name: { type: 'string' },
      url: { type: 'string' },
      'backfill-from': { type: 'string' },
      index: { type: 'string' },
      source: { type: 'string' },
      sourcetype: { type: 'string' },
      service: { type: 'string' },
      ddsource: { type: 'string' },
      ddtags: { type: 'string' },
      gzip: { type: 'boolean' },
    },
  },
  'log-stream list': {
    synopsis: '--org S',
    summary: "list the organization's log streams with their health (never their secrets)",
    details: ['Prints {"data":[stream…]}, oldest first, each as `log-stream show` prints it.'],
    flags: { org: { type: 'string' } },
  },
  'log-stream show': {
    synopsis: '--org S --id LST_ID',
    summary: 'show one log stream: its settings, status, last error and lag',
    details: [
      'Prints {"id","name","type","url","settings","active","backfillFrom","status","lastError",',
      '"lastErrorAt","lastSentAt","sentEntries","lag":{"entries","oldestUnsentAt"},"createdAt","updatedAt"}.',
      'status: active, failing (retried with backoff) or paused. Never a secret.',
    ],
    flags: { org: { type: 'string' }, id: { type: 'string' } },
  },
  'log-stream update': {
    synopsis:
      '--org S --id LST_ID [--name N] [--url URL] [--pause | --resume] [--new-secret] [--index I] [--source S] [--sourcetype T] [--service S] [--ddsource S] [--ddtags TAGS] [--gzip | --no-gzip]',
    summary: 'change a log stream (its type and its place in the audit log stay)',
    details: [
      'Prints the stream. --pause stops sending; --resume goes on from the entry after the last one',
      'accepted. --new-secret reads a new HEC token (splunk_hec) or API key (datadog) as create does.',
      'A new URL or secret, or resuming, retries at once.',
    ],
    flags: {
      org: { type: 'string' },
      id: { type: 'string' },
      name: { type: 'string' },
      url: { type: 'string' },
      pause: { type: 'boolean' },
      resume: { type: 'boolean' },
      'new-secret': { type: 'boolean' },
      index: { type: 'string' },
      source: { type: 'string' },
      sourcetype: { type: 'string' },
      service: { type: 'string' },
      ddsource: { type: 'string' },
      ddtags: { type: 'string' },
      gzip: { type: 'boolean' },
      'no-gzip': { type: 'boolean' },
    },
  },
  'log-stream delete': {
    synopsis: '--org S --id LST_ID',
    summary: 'delete a log stream; nothing more is sent to it',
    details: ['Prints {"deleted":"lst_…"}.'],
    flags: { org: { type: 'string' }, id: { type: 'string' } },
  },
  'trusted-app list': {
    synopsis: '--org S',
    summary: 'list the apps the organization issues ID-JAGs for (Enterprise-Managed Authorization)',
    details: ['Prints {"data":[trusted app…]}, oldest first.'],
    flags: { org: { type: 'string' } },
  },
  'trusted-app create': {
    synopsis:
      '--org S --name N --audience ISSUER --target-client-id C --client CLIENT_ID... [--resource URI]... [--scope SCOPE]...',
    summary: "let some of the organization's clients get ID-JAGs for a target authorization server",
    details: [
      'Prints the trusted app {"id","name","audience","targetClientId","clientIds","resources","scopes"}.',
      "--audience: the target authorization server's issuer (the ID-JAG's aud); --target-client-id: the id",
      "it knows the clients by (the ID-JAG's client_id); --client: a confidential client of the org that",
      'may ask; --resource and --scope: what they may ask for (docs/enterprise-managed-authorization.md).',
    ],
    flags: {
      org: { type: 'string' },
      name: { type: 'string' },
      audience: { type: 'string' },
      'target-client-id': { type: 'string' },
      client: { type: 'string', multiple: true },
      resource: { type: 'string', multiple: true },
      scope: { type: 'string', multiple: true },
    },
  },
  'trusted-app show': {
    synopsis: '--org S --id TAP_ID',
    summary: 'show one trusted app',
    details: ['Prints the trusted app.'],
    flags: { org: { type: 'string' }, id: { type: 'string' } },
  },
  'trusted-app update': {
    synopsis:
      '--org S --id TAP_ID [--name N] [--audience ISSUER] [--target-client-id C] [--client CLIENT_ID]... [--resource URI]... [--scope SCOPE]...',
    summary: 'change a trusted app',
    details: ['Prints the trusted app. A repeatable flag replaces the whole list; --resource "" empties it.'],
    flags: {
      org: { type: 'string' },
      id: { type: 'string' },
      name: { type: 'string' },
      audience: { type: 'string' },
      'target-client-id': { type: 'string' },
      client: { type: 'string', multiple: true },
      resource: { type: 'string', multiple: true },
      scope: { type: 'string', multiple: true },
    },
  },
  'trusted-app delete': {
    synopsis: '--org S --id TAP_ID',
    summary: 'delete a trusted app: no more ID-JAGs for it',
    details: ['Prints {"deleted":"tap_…"}.'],
    flags: { org: { type: 'string' }, id: { type: 'string' } },
  },
  'domain add': {
    synopsis: '--org S --name HOST',
    summary: "add one of the organization's own domains: prints the TXT record that proves it",
    details: [
      'Prints the domain {"id","name","verified","primary","txtRecord":{"name","type","value"}}.',
      'Create the TXT record _tessera-challenge.HOST with the value shown, then run `tessera domain verify`.',
    ],
    flags: { org: { type: 'string' }, name: { type: 'string' } },
  },
  'domain list': {
    synopsis: '--org S',
    summary: "list the organization's own domains",
    details: ['Prints {"data":[domain…]}, oldest first.'],
    flags: { org: { type: 'string' } },
  },
  'domain verify': {
    synopsis: '--org S --id DOM_ID',
    summary:
      "look the domain's TXT record up (TESSERA_DNS_SERVERS) and mark it verified when it holds the token",
    details: [
      'Prints the domain. A missing or wrong record, or DNS that does not answer, is an error: fix it and run again.',
    ],
    flags: { org: { type: 'string' }, id: { type: 'string' } },
  },
  'domain primary': {
    synopsis: '--org S --id DOM_ID [--on | --off]',
    summary:
      "move the organization's issuer onto this verified domain (--on, the default) or back off it (--off)",
    details: [
      'Prints the domain. The host the issuer leaves serves discovery, the key set and introspection until',
      'the last token it issued has expired, and redirects its pages to the new host.',
    ],
    flags: {
      org: { type: 'string' },
      id: { type: 'string' },
      on: { type: 'boolean' },
      off: { type: 'boolean' },
    },
  },
  'domain delete': {
    synopsis: '--org S --id DOM_ID',
    summary: 'delete a domain (not the one the issuer lives on)',
    details: ['Prints {"deleted":"dom_…"}.'],
    flags: { org: { type: 'string' }, id: { type: 'string' } },
  },
} as const satisfies Record<string, Usage>;

export type CommandName = keyof typeof USAGES;

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

const line = (name: CommandName) =>
  `tessera ${name}${USAGES[name].synopsis ? ` ${USAGES[name].synopsis}` : ''}`;

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
