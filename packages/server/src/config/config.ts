import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { isLoopbackHost } from '../domain/loopback.js';
import {
  DEFAULT_RETRY_SCHEDULE,
  DEFAULT_WEBHOOK_TIMEOUT,
  parseDelay,
  parseRetrySchedule,
} from '../domain/webhooks/retry-schedule.js';

/** Validated, frozen configuration. Bad input stops start-up with one line naming the variable. */
export interface Config {
  readonly port: number;
  /** The address to listen on (HOST): loopback while TESSERA_URL is loopback, else every interface. */
  readonly host: string;
  /** `{base_url}` without a trailing slash, e.g. `http://localhost:4000`. */
  readonly baseUrl: string;
  readonly baseHost: string;
  readonly scheme: 'http' | 'https';
  /** Host (and port) under which org issuers live: `${slug}.${issuerDomain}`. */
  readonly issuerDomain: string;
  /**
   * TESSERA_ISSUER_STYLE: `host` (the default), an org's issuer is `${scheme}://${slug}.${issuerDomain}/`;
   * `path`, it is `${baseUrl}/o/${slug}/`, every org on the base host under its own path.
   */
  readonly issuerStyle: IssuerStyle;
  readonly dataDir: string;
  readonly databaseUrl: string | null;
  /** TESSERA_DB_POOL: PostgreSQL connections per process (SQLite has one connection). */
  readonly dbPool: number;
  /**
   * TESSERA_DB_LISTEN_URL: where the connections that LISTEN go (default DATABASE_URL). A direct
   * connection to the primary when DATABASE_URL is a pooler in transaction mode, which cannot carry
   * a LISTEN (a session's state). Null on SQLite.
   */
  readonly databaseListenUrl: string | null;
  /**
   * TESSERA_DB_PREPARED_STATEMENTS (`on` or `off`): whether the statements of the hot paths (a
   * refresh, a code exchange, a password sign-in's reads and its one write, a log stream's batch)
   * are named prepared statements on each connection to DATABASE_URL, parsed and planned once per
   * connection. A pooler in transaction mode (PgBouncer before 1.21, or without
   * `max_prepared_statements`) cannot carry them. Default `on`, and `off` when TESSERA_DB_LISTEN_URL is set to another URL: that variable is
   * for exactly such a pooler. Always false on SQLite (it prepares every statement anyway).
   */
  readonly dbPreparedStatements: boolean;
  /**
   * TESSERA_DB_READ_URL: a read replica for the reads that tolerate lag (discovery, JWKS, management
   * lists, the audit list); null: every read goes to DATABASE_URL.
   */
  readonly databaseReadUrl: string | null;
  /** Secret for encrypting keys at rest; null means "generate one into the data dir". */
  readonly secret: string | null;
  readonly trustProxy: number;
  /**
   * TESSERA_OUTBOUND_ALLOW_PRIVATE: every outbound fetch (webhook deliveries, metadata documents,
   * clients' `jwks_uri`, connections' upstream calls) may reach loopback and private addresses.
   */
  readonly outboundAllowPrivate: boolean;
  /**
   * The deprecated variable that set `outboundAllowPrivate` (TESSERA_WEBHOOKS_ALLOW_PRIVATE), when it
   * was given: `serve` and `worker` warn about it at start-up. Null when it was not given.
   */
  readonly deprecatedAllowPrivate: 'TESSERA_WEBHOOKS_ALLOW_PRIVATE' | null;
  /** Delays in ms between webhook delivery attempts (TESSERA_WEBHOOK_RETRY_SCHEDULE). */
  readonly webhookRetrySchedule: readonly number[];
  /** One delivery attempt's time limit in ms (TESSERA_WEBHOOK_TIMEOUT); a claim holds twice as long. */
  readonly webhookTimeoutMs: number;
  /**
   * How long after a refresh token is rotated presenting it again is refused without revoking the
   * session (TESSERA_REFRESH_REUSE_GRACE), in ms; 0 turns the grace off.
   */
  readonly refreshReuseGraceMs: number;
  /** True while TESSERA_URL points at a loopback host: enables the `host` query override. */
  readonly loopback: boolean;
  /**
   * TESSERA_DNS_SERVERS: the DNS servers a custom domain's TXT record is asked of (DESIGN §21), each
   * `address` or `address:port` (IPv6 in brackets); null: the system's resolvers.
   */
  readonly dnsServers: readonly string[] | null;
  /** pino level for request logs: fatal, error, warn, info, debug, trace or silent. */
  readonly logLevel: string;
  /** TESSERA_SMTP_URL: where mail is sent (smtp:// or smtps://); null: none (see src/mail/). */
  readonly smtpUrl: string | null;
  /** TESSERA_MAIL_FROM: the From of every mail (default `Tessera <no-reply@{TESSERA_URL's host}>`). */
  readonly mailFrom: string;
}

/** Where orgs' issuers live: one host each (`host`), or under `/o/<slug>/` on the base host (`path`). */
export type IssuerStyle = 'host' | 'path';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Two requests refreshing with the same token at once (two tabs) are not an attack: the loser is
 * refused without ending the session for this long after the rotation. Kept short, and capped,
 * because a replay inside it is not detected.
 */
const DEFAULT_REFRESH_REUSE_GRACE = '10s';
const MAX_REFRESH_REUSE_GRACE_MS = 60_000;

/**
 * PostgreSQL connections per process (TESSERA_DB_POOL). Ten by default (pg's own default); the
 * ceiling keeps one process from taking a database's whole connection limit by a typo.
 */
const DEFAULT_DB_POOL = 10;
const MAX_DB_POOL = 200;

const parseGrace = (text: string) => (text === '0' ? 0 : parseDelay(text, MAX_REFRESH_REUSE_GRACE_MS));

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}`);
  }
  return Number(raw);
}

/** The variable (or `fallback` when unset or empty), trimmed and parsed; a parse error names the variable. */
function textSetting<T>(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: string,
  parse: (text: string) => T,
): T {
  try {
    return parse((env[name] || fallback).trim());
  } catch (error) {
    throw new ConfigError(`${name} ${(error as Error).message}`);
  }
}

/** HOST: an IP address (v4 or v6, brackets optional) or `localhost`. */
function bindAddress(env: NodeJS.ProcessEnv, loopback: boolean): string {
  const raw = env.HOST;
  if (raw === undefined || raw === '') return loopback ? '127.0.0.1' : '0.0.0.0';
  const host = raw.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host !== 'localhost' && isIP(host) === 0) {
    throw new ConfigError('HOST must be an IP address (such as 0.0.0.0, 127.0.0.1 or ::) or localhost');
  }
  return host;
}

/**
 * TESSERA_SMTP_URL: `smtp://` (STARTTLS when the server offers it) or `smtps://` (TLS from the
 * start), with the user and password in the URL when the server wants them. The message never
 * repeats the value: it may hold a password.
 */
function parseSmtpUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  let url: URL | null = null;
  try {
    url = new URL(raw.trim());
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new ConfigError(
      'TESSERA_SMTP_URL must be an smtp:// or smtps:// URL such as smtps://user:password@mail.example.com:465',
    );
  }
  return url.href;
}

// An address, or a display name and an address in angle brackets; no line breaks (header injection).
const MAIL_FROM = /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

/** TESSERA_MAIL_FROM, or `Tessera <no-reply@host>` for TESSERA_URL's host. */
function parseMailFrom(raw: string | undefined, hostname: string): string {
  if (raw === undefined || raw.trim() === '') {
    const host = hostname.replace(/^\[|\]$/g, '');
    return `Tessera <no-reply@${host.includes(':') ? `[IPv6:${host}]` : host}>`;
  }
  const from = raw.trim();
  if (!MAIL_FROM.test(from)) {
    throw new ConfigError('TESSERA_MAIL_FROM must be an address such as Acme <no-reply@acme.example.com>');
  }
  return from;
}

/**
 * TESSERA_OUTBOUND_ALLOW_PRIVATE (1 or 0), the one switch of the outbound address policy. Its old
 * name, TESSERA_WEBHOOKS_ALLOW_PRIVATE, still works and is reported as deprecated; given both, they
 * must agree, so a deployment never runs with a value it did not mean.
 */
function outboundAllowPrivate(env: NodeJS.ProcessEnv): {
  allowed: boolean;
  deprecated: 'TESSERA_WEBHOOKS_ALLOW_PRIVATE' | null;
} {
  const read = (name: string) => {
    const raw = env[name] ?? '';
    if (!['', '0', '1'].includes(raw)) throw new ConfigError(`${name} must be 1 or 0`);
    return raw === '' ? null : raw === '1';
  };
  const current = read('TESSERA_OUTBOUND_ALLOW_PRIVATE');
  const old = read('TESSERA_WEBHOOKS_ALLOW_PRIVATE');
  if (current !== null && old !== null && current !== old) {
    throw new ConfigError(
      'TESSERA_OUTBOUND_ALLOW_PRIVATE and TESSERA_WEBHOOKS_ALLOW_PRIVATE (its deprecated name) disagree: set only TESSERA_OUTBOUND_ALLOW_PRIVATE',
    );
  }
  return {
    allowed: current ?? old ?? false,
    deprecated: old === null ? null : 'TESSERA_WEBHOOKS_ALLOW_PRIVATE',
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 4000, 0, 65535);
  const rawUrl = env.TESSERA_URL || `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ConfigError('TESSERA_URL must be an absolute http(s) URL such as http://localhost:4000');
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname !== '/' ||
    url.search ||
    url.hash
  ) {
    throw new ConfigError('TESSERA_URL must be an http(s) origin with no path, query or fragment');
  }
  const issuerDomain = (env.TESSERA_ISSUER_DOMAIN || url.host).toLowerCase();
  if (!/^[a-z0-9.-]+(:\d{1,5})?$/.test(issuerDomain) && !/^\[[0-9a-f:]+\](:\d{1,5})?$/.test(issuerDomain)) {
    throw new ConfigError('TESSERA_ISSUER_DOMAIN must be a host name with an optional port');
  }
  const issuerStyle = env.TESSERA_ISSUER_STYLE || 'host';
  if (issuerStyle !== 'host' && issuerStyle !== 'path') {
    throw new ConfigError(
      'TESSERA_ISSUER_STYLE must be host (one host per org) or path (/o/<slug>/ on TESSERA_URL)',
    );
  }
  // Org hosts are not served with path issuers: a domain for them would be a setting without effect.
  if (issuerStyle === 'path' && env.TESSERA_ISSUER_DOMAIN) {
    throw new ConfigError(
      'TESSERA_ISSUER_DOMAIN names the org hosts, which TESSERA_ISSUER_STYLE=path does not use: unset one of them',
    );
  }
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite)');
  }
  const databaseListenUrl = secondDatabaseUrl(env, 'TESSERA_DB_LISTEN_URL', databaseUrl) ?? databaseUrl;
  const dbPreparedStatements = preparedStatements(env, databaseUrl, databaseListenUrl);
  const databaseReadUrl = secondDatabaseUrl(env, 'TESSERA_DB_READ_URL', databaseUrl);
  const secret = env.TESSERA_SECRET || null;
  if (secret !== null && secret.length < 32) {
    throw new ConfigError('TESSERA_SECRET must be at least 32 characters');
  }
  const allowPrivate = outboundAllowPrivate(env);
  const webhookRetrySchedule = textSetting(
    env,
    'TESSERA_WEBHOOK_RETRY_SCHEDULE',
    DEFAULT_RETRY_SCHEDULE,
    parseRetrySchedule,
  );
  const webhookTimeoutMs = textSetting(env, 'TESSERA_WEBHOOK_TIMEOUT', DEFAULT_WEBHOOK_TIMEOUT, (text) =>
    parseDelay(text, 60_000),
  );
  const refreshReuseGraceMs = textSetting(
    env,
    'TESSERA_REFRESH_REUSE_GRACE',
    DEFAULT_REFRESH_REUSE_GRACE,
    parseGrace,
  );
  const logLevel = env.TESSERA_LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('TESSERA_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent');
  }
  const loopback = isLoopbackHost(url.hostname);
  const smtpUrl = parseSmtpUrl(env.TESSERA_SMTP_URL);
  const mailFrom = parseMailFrom(env.TESSERA_MAIL_FROM, url.hostname);
  return Object.freeze({
    smtpUrl,
    mailFrom,
    logLevel,
    port,
    host: bindAddress(env, loopback),
    baseUrl: url.origin,
    baseHost: url.host.toLowerCase(),
    scheme: url.protocol === 'https:' ? 'https' : 'http',
    issuerDomain,
    issuerStyle,
    dataDir: resolve(env.TESSERA_DATA_DIR || '.tessera'),
    databaseUrl,
    dbPool: integer(env, 'TESSERA_DB_POOL', DEFAULT_DB_POOL, 1, MAX_DB_POOL),
    databaseListenUrl,
    dbPreparedStatements,
    databaseReadUrl,
    secret,
    trustProxy: integer(env, 'TESSERA_TRUST_PROXY', 0, 0, 32),
    outboundAllowPrivate: allowPrivate.allowed,
    deprecatedAllowPrivate: allowPrivate.deprecated,
    webhookRetrySchedule: Object.freeze(webhookRetrySchedule),
    webhookTimeoutMs,
    refreshReuseGraceMs,
    loopback,
    dnsServers: parseDnsServers(env.TESSERA_DNS_SERVERS),
  });
}

/** TESSERA_DNS_SERVERS: comma-separated IP addresses with optional ports; unset or empty: null. */
export function parseDnsServers(raw: string | undefined): readonly string[] | null {
  if (raw === undefined || raw.trim() === '') return null;
  const servers = raw.split(',').map((s) => s.trim());
  for (const server of servers) {
    const m = /^(?:\[([0-9a-fA-F:.]+)\]|([0-9.]+))(?::(\d{1,5}))?$/.exec(server);
    const address = m?.[1] ?? m?.[2] ?? '';
    const port = m?.[3] === undefined ? 53 : Number(m[3]);
    const family = isIP(address);
    if (!m || family === 0 || (m[1] !== undefined && family !== 6) || port < 1 || port > 65535)
      throw new ConfigError(
        'TESSERA_DNS_SERVERS must be IP addresses with optional ports, comma-separated: 127.0.0.1:5353,[::1]:53',
      );
  }
  return Object.freeze(servers);
}

/** TESSERA_DB_PREPARED_STATEMENTS: `on` or `off`; unset, off behind a pooler (Config.dbPreparedStatements). */
function preparedStatements(
  env: NodeJS.ProcessEnv,
  databaseUrl: string | null,
  listenUrl: string | null,
): boolean {
  const raw = env.TESSERA_DB_PREPARED_STATEMENTS;
  if (raw === undefined || raw === '') return databaseUrl !== null && listenUrl === databaseUrl;
  if (raw !== 'on' && raw !== 'off')
    throw new ConfigError('TESSERA_DB_PREPARED_STATEMENTS must be on or off');
  if (databaseUrl === null) {
    throw new ConfigError('TESSERA_DB_PREPARED_STATEMENTS needs DATABASE_URL (it is a PostgreSQL setting)');
  }
  return raw === 'on';
}

/** A second PostgreSQL URL (`name`): only beside DATABASE_URL, and a postgres:// URL; null when unset. */
function secondDatabaseUrl(env: NodeJS.ProcessEnv, name: string, databaseUrl: string | null): string | null {
  const value = env[name] || null;
  if (value === null) return null;
  if (databaseUrl === null) throw new ConfigError(`${name} needs DATABASE_URL (it is a PostgreSQL setting)`);
  if (!/^postgres(ql)?:\/\//.test(value)) throw new ConfigError(`${name} must be a postgres:// URL`);
  return value;
}
