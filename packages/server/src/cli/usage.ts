import type { Spec } from './args.js';

interface Usage {
  /** The flags, as written after `tessera <command>`. */
  readonly synopsis: string;
  /** One line for the list of commands. */
  readonly summary: string;
  /** What `tessera <command> --help` adds: what it prints, what it needs. */
  readonly details: readonly string[];
  readonly flags: Spec;
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
    summary: 'migrate, then deliver webhooks without serving HTTP',
    details: [
      'Run as many as you like beside `tessera serve` on one database. Every line it writes is a JSON',
      'log line on stdout. --concurrency (1 to 1000, default 32) caps deliveries in flight.',
    ],
    flags: { concurrency: { type: 'string' } },
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
    synopsis: '--org S --require-mfa true|false',
    summary: 'require (or stop requiring) a second factor for the organization',
    details: ['Prints {"id","slug","requireMfa"}.'],
    flags: { org: { type: 'string' }, 'require-mfa': { type: 'string' } },
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
      '--org S --name N (--confidential | --public) [--redirect-uri U]... [--post-logout-redirect-uri U]... [--grant G]... [--promote-from CLIENT_ID]...',
    summary: 'create an OAuth client',
    details: [
      'Prints {"clientId","clientSecret"?,"redirectUris","postLogoutRedirectUris"?,"grantTypes"}; the',
      'secret (confidential clients only) is shown this once. --post-logout-redirect-uri registers where',
      'sign-out (/oauth/logout) may return to.',
    ],
    flags: {
      org: { type: 'string' },
      name: { type: 'string' },
      confidential: { type: 'boolean' },
      public: { type: 'boolean' },
      'redirect-uri': { type: 'string', multiple: true },
      'post-logout-redirect-uri': { type: 'string', multiple: true },
      grant: { type: 'string', multiple: true },
      'promote-from': { type: 'string', multiple: true },
    },
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
  'keys rotate': {
    synopsis: '--org S',
    summary: "rotate the organization's signing key",
    details: ['Prints {"kid"}: new tokens carry it; tokens signed before still verify.'],
    flags: { org: { type: 'string' } },
  },
} as const satisfies Record<string, Usage>;

export type CommandName = keyof typeof USAGES;

const NAMES = Object.keys(USAGES) as CommandName[];

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
    '`tessera <command> --help` describes one command; `tessera --version` prints the version.',
    '--org takes a slug, an org_… id, or `console`. Configuration comes from the environment (see README).',
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
