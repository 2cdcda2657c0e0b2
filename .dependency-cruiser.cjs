/**
 * The server's floors and the only directions its imports may take (docs/architecture.md):
 *
 *   cli → server.ts/runtime.ts (composition) → http, delivery → domain → storage → crypto
 *
 * config and observability sit beside the floors that read them. Each rule below names the imports
 * a floor may not make; `npm run lint` fails on any of them and on any import cycle.
 */
const S = '^packages/server/src/';
const floor = (names) => `${S}(${names.join('|')})`;
const COMPOSITION = ['server\\.ts$', 'runtime\\.ts$', 'cli/', 'dev/'];

/** Packages the domain never imports, types included: HTTP servers and clients, SQL drivers, JWT libraries. */
const HTTP_SQL_JWT = [
  ...['fastify', '@fastify/[^/]+', 'light-my-request', 'undici', 'express', 'koa', '@koa/[^/]+'],
  ...['openapi-fetch', 'simple-oauth2', 'oidc-provider'],
  ...['kysely', 'pg', 'pg-[^/]+', 'better-sqlite3'],
  ...['jose', 'jsonwebtoken', 'jwks-rsa', 'koa-jwt', 'express-oauth2-jwt-bearer'],
];
/** OpenID / OAuth clients: HTTP and JWT in one (domain-has-one-oidc-client). */
const OIDC_CLIENTS = ['openid-client', 'oauth4webapi'];
/**
 * The domain's features, lowest first (docs/architecture.md, "Domain features one way"): a feature
 * may import the features before it and the base files (domain/*.ts), never one after it. The
 * audit log and the webhook outbox are the sink every other feature writes to.
 */
const FEATURES = [
  'webhooks',
  'audit',
  'texts',
  'log-streams',
  'sessions',
  'keys',
  'directory',
  'branding',
  'resources',
  'tokens',
  'sign-in',
  'mail',
  'teams',
  'federation',
  'enterprise-access',
  'scim',
  'custom-domains',
];
const D = `${S}domain/`;
const featureOrder = FEATURES.map((feature, i) => ({
  name: `domain-feature-order-${feature}`,
  severity: 'error',
  comment: `domain/${feature}/ may import only the features before it (${FEATURES.slice(0, i).join(', ') || 'none'}) and domain's base files.`,
  from: { path: `${D}${feature}/` },
  to: { path: `${D}(${FEATURES.slice(i + 1).join('|') || '$^'})/` },
}));

const packagesPath = (names) => `(^|/)node_modules/(@types/)?(${names.join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle ties modules that should be able to change apart.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'http-is-transport',
      severity: 'error',
      comment: 'http/ reaches rules through the domain: never storage, crypto, the delivery worker or mail.',
      from: { path: `${S}http/` },
      to: { path: floor(['storage/', 'crypto/', 'delivery/', 'mail/', ...COMPOSITION]) },
    },
    {
      name: 'delivery-above-domain',
      severity: 'error',
      comment: 'The delivery worker is its own floor above the domain; it never serves HTTP.',
      from: { path: `${S}delivery/` },
      to: { path: floor(['http/', ...COMPOSITION]) },
    },
    {
      name: 'domain-has-no-transport',
      severity: 'error',
      comment: 'The domain holds rules: no HTTP, no worker, no logger, no mail transport (it has a port).',
      from: { path: `${S}domain/` },
      to: { path: floor(['http/', 'delivery/', 'observability/', 'mail/', ...COMPOSITION]) },
    },
    {
      name: 'mail-is-an-adapter',
      severity: 'error',
      comment:
        "mail/ implements the domain's Mailer port (types only) with nodemailer or the log; it reads no rules or rows.",
      from: { path: `${S}mail/` },
      to: {
        path: floor(['http/', 'delivery/', 'domain/', 'storage/', 'crypto/', ...COMPOSITION]),
        pathNot: `${S}domain/mail/mailer\\.ts$`,
      },
    },
    {
      name: 'mail-port-is-types-only',
      severity: 'error',
      comment: "mail/ sees the domain's Mailer port as types, never as code.",
      from: { path: `${S}mail/` },
      to: { path: `${S}domain/`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'domain-has-no-http-sql-or-jwt',
      severity: 'error',
      comment:
        'The domain states rules: HTTP is http/ and delivery/, SQL is storage/ and JWTs are crypto/, each behind a function the domain calls.',
      from: { path: `${S}domain/` },
      to: { path: [packagesPath(HTTP_SQL_JWT), '^(node:)?(http|https|http2)$'] },
    },
    {
      name: 'domain-has-one-oidc-client',
      severity: 'error',
      comment:
        'An OpenID client speaks HTTP and checks JWTs: in the domain only domain/federation/oidc-upstream.ts uses one, until its upstream calls move out of the domain (#26).',
      from: { path: `${S}domain/`, pathNot: `${S}domain/federation/oidc-upstream\\.ts$` },
      to: { path: packagesPath(OIDC_CLIENTS) },
    },
    {
      name: 'domain-is-given-its-settings',
      severity: 'error',
      comment: 'The domain reads the settings it is handed (types only); it never loads the environment.',
      from: { path: `${S}domain/` },
      to: { path: `${S}config/`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'domain-reads-no-rows',
      severity: 'error',
      comment:
        "The domain handles domain types (domain/types.ts): the tables' row types (storage/schema.ts) stay in storage/, whose repositories map them.",
      from: { path: `${S}domain/` },
      to: { path: `${S}storage/schema\\.ts$` },
    },
    {
      name: 'domain-holds-no-database',
      severity: 'error',
      comment:
        'The domain holds the opaque handle and the unit of work (storage/handle.ts), never the database: not storage/db.ts (the Kysely type Db, the store), storage/opened.ts (what opens a handle) nor storage/compiled-once.ts (statements on a Db), types included.',
      from: { path: `${S}domain/` },
      to: { path: `${S}storage/(db|opened|compiled-once)\\.ts$` },
    },
    {
      name: 'storage-maps-to-domain-types',
      severity: 'error',
      comment: 'storage/ maps rows to the domain model (domain/types.ts) and knows nothing else above it.',
      from: { path: `${S}storage/` },
      to: {
        path: floor(['http/', 'delivery/', 'domain/', 'config/', 'observability/', ...COMPOSITION]),
        pathNot: `${S}domain/types\\.ts$`,
      },
    },
    {
      name: 'crypto-depends-on-nothing',
      severity: 'error',
      comment: 'crypto/ is primitives: it imports nothing of the service.',
      from: { path: `${S}crypto/` },
      to: { path: `${S}`, pathNot: `${S}crypto/` },
    },
    {
      name: 'config-reads-environment-only',
      severity: 'error',
      comment: "config/ turns the environment into settings with the domain's pure rules, nothing more.",
      from: { path: `${S}config/` },
      to: { path: floor(['http/', 'delivery/', 'storage/', 'observability/', ...COMPOSITION]) },
    },
    {
      name: 'observability-is-a-leaf',
      severity: 'error',
      comment: 'Logs and metrics are read by every floor, so they import none.',
      from: { path: `${S}observability/` },
      to: { path: `${S}`, pathNot: `${S}observability/` },
    },
    {
      name: 'packages-stand-alone',
      severity: 'error',
      comment: "The published packages never reach into each other's sources.",
      from: { path: '^packages/(koa|sdk)/src/' },
      to: { path: '^packages/server/' },
    },
    ...featureOrder,
    {
      name: 'domain-features-enter-by-index',
      severity: 'error',
      comment:
        'Outside the domain a feature is entered by its index.ts, its public face; the rest of its folder is its own. (config/ reads pure rules and mail/ implements the Mailer port: their own rules say what they may import.)',
      from: { path: floor(['http/', 'delivery/', ...COMPOSITION]) },
      to: { path: `${D}[^/]+/`, pathNot: `${D}[^/]+/index\\.ts$` },
    },
    {
      name: 'domain-feature-is-known',
      severity: 'error',
      comment: 'Every folder of domain/ is a feature with a place in the order (FEATURES above).',
      from: {},
      to: { path: `${D}[^/]+/`, pathNot: `${D}(${FEATURES.join('|')})/` },
    },
    {
      name: 'domain-base-under-features',
      severity: 'error',
      comment:
        "domain's base files (clock, errors, types, issuers, policy, …) sit under every feature: they import none, but the dependency bag (context.ts) names feature services by type.",
      from: { path: `${D}[^/]+\\.ts$`, pathNot: `${D}context\\.ts$` },
      to: { path: `${D}[^/]+/` },
    },
    {
      name: 'domain-bag-names-types-only',
      severity: 'error',
      comment: 'The dependency bag (domain/context.ts) names feature services by type only.',
      from: { path: `${D}context\\.ts$` },
      to: { path: `${D}[^/]+/`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules stay in the graph as leaves (doNotFollow), so rules can name packages.
    exclude: { path: '^packages/[^/]+/dist/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['tessera-source', 'import', 'types', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.json'],
    },
  },
};
