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
      name: 'domain-is-given-its-settings',
      severity: 'error',
      comment: 'The domain reads the settings it is handed (types only); it never loads the environment.',
      from: { path: `${S}domain/` },
      to: { path: `${S}config/`, dependencyTypesNot: ['type-only'] },
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
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['tessera-source', 'import', 'types', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.json'],
    },
  },
};
