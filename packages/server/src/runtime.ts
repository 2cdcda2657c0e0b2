import { type Config, ConfigError } from './config/config.js';
import { loadMasterSecret } from './config/master-secret.js';
import { derivePageKeys } from './crypto/derived-keys.js';
import { NonceMinter } from './crypto/dpop-proof.js';
import { Sealer } from './crypto/sealing.js';
import { dnsTxtRecords } from './delivery/dns-txt-records.js';
import type { Deps } from './domain/context.js';
import { CredentialCache } from './domain/credential-cache.js';
import type { TxtRecords } from './domain/custom-domains/index.js';
import { ensureConsoleOrg, type OrgCache } from './domain/directory/index.js';
import { KeyRing, type PublishedKeys, secretOpensDatabase } from './domain/keys/index.js';
import type { Mailer } from './domain/mail/index.js';
import type { Connection, MachineClient, ServiceAccountBinding } from './domain/types.js';
import { unsentMailer } from './mail/mailers.js';
import { listenForChanges } from './storage/change-listener.js';
import { type Db, openStore } from './storage/db.js';
import { migrate } from './storage/migrate.js';
import { CREDENTIALS_CHANNEL } from './storage/migrations/008-credential-changes.js';
import { unitOfWorkOn } from './storage/opened.js';
import { ReadRouter } from './storage/read-routing.js';
import type { StoredBranding } from './storage/repos/brandings.js';
import { retriedWhenConnectionsEnd } from './storage/start-up-retry.js';

export interface Runtime {
  deps: Deps;
  /**
   * The database itself, for the composition: what the domain is handed is deps.store and
   * deps.unitOfWork. The commands' and the tests' own reads (stored rows) use this.
   */
  db: Db;
  /** The PostgreSQL pool's connections now; null on SQLite. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /** With TESSERA_DB_READ_URL: decides which reads go to the replica (the app enters its scopes). */
  reads: ReadRouter | null;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /**
   * Keep client_credentials lookups and the token endpoint's orgs in memory (`tessera serve`). Opens
   * one more connection: on PostgreSQL LISTENing for the changes that empty the caches, on SQLite
   * reading its commit counter.
   */
  cacheCredentials?: boolean;
  /**
   * Open the PostgreSQL connections the pool keeps and read the schema's catalog on them before
   * returning (storage/warm-pool.ts): a serving process's first requests then pay neither.
   */
  warm?: boolean;
  /** Where mail goes (src/mail/mailers.ts mailerFor); default: nowhere, with a warning per mail. */
  mailer?: Mailer;
  /** Where custom domains' TXT records are asked (default: node:dns, TESSERA_DNS_SERVERS). */
  txtRecords?: TxtRecords;
  /** Told the migrations this start applied, by name, when it applied any (for the `migrated` log line). */
  onMigrated?: (names: string[]) => void;
  /** Told each wait for a database connection, in seconds (for /metrics). */
  onConnectionWait?: (seconds: number) => void;
  /** Told each read the replica cancelled for a conflict with recovery (the primary answered it). */
  onRecoveryConflict?: () => void;
}

interface CachedTables {
  credentials: CredentialCache<MachineClient>;
  orgs: OrgCache;
  keySets: CredentialCache<PublishedKeys>;
  serviceAccounts: CredentialCache<ServiceAccountBinding>;
  orgTexts: CredentialCache<ReadonlyMap<string, string>>;
  brandings: CredentialCache<readonly StoredBranding[]>;
  connections: CredentialCache<readonly Connection[]>;
  signInPolicies: CredentialCache<boolean>;
}

const cachedTables = (version?: () => number): CachedTables => ({
  credentials: new CredentialCache(version),
  orgs: new CredentialCache(version),
  keySets: new CredentialCache(version),
  serviceAccounts: new CredentialCache(version),
  orgTexts: new CredentialCache(version),
  brandings: new CredentialCache(version),
  connections: new CredentialCache(version),
  signInPolicies: new CredentialCache(version),
});

/**
 * Opens the database, brings the schema up to date, checks the master secret is the database's
 * (a ConfigError naming TESSERA_SECRET otherwise) and makes sure the console org exists.
 */
export async function openRuntime(
  config: Config,
  warn: (line: string) => void,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const masterSecret = loadMasterSecret(config, warn);
  const sealer = new Sealer(masterSecret);
  // Held in memory only, like the sealer's key; never logged.
  const pageKeys = derivePageKeys(masterSecret);
  const reads =
    config.databaseUrl && config.databaseReadUrl
      ? new ReadRouter(options.onRecoveryConflict ? { onRecoveryConflict: options.onRecoveryConflict } : {})
      : null;
  const store = openStore({
    databaseUrl: config.databaseUrl,
    ...(reads && config.databaseReadUrl ? { replica: { url: config.databaseReadUrl, router: reads } } : {}),
    dataDir: config.dataDir,
    poolSize: config.dbPool,
    prepared: config.dbPreparedStatements,
    warn,
    ...(options.onConnectionWait ? { onConnectionWait: options.onConnectionWait } : {}),
  });
  let listener: { close(): Promise<void> } | null = null;
  try {
    const applied = await migrate(store.db);
    if (applied.length > 0) options.onMigrated?.(applied);
    if (!(await retriedWhenConnectionsEnd(() => secretOpensDatabase(store.db, sealer), warn))) {
      throw new ConfigError(
        'TESSERA_SECRET does not open this database: it was set up with another secret; ' +
          'every process of one database needs the same TESSERA_SECRET',
      );
    }
    // client_credentials lookups, the token endpoint's orgs, key sets and service accounts, and
    // what every hosted page reads per org (its texts overrides, brands, connections, second-factor
    // policy) are cached: on PostgreSQL until a NOTIFY says one of their tables changed (migrations
    // 008, 013, 056, 060) or, for this process's own changes, at their commit
    // (storage/own-writes.ts); on SQLite until a commit changes them (migrations 030, 056, 060).
    let caches: CachedTables | undefined;
    if (options.cacheCredentials && store.credentialVersion) {
      caches = cachedTables(store.credentialVersion);
    } else if (options.cacheCredentials && config.databaseUrl) {
      caches = cachedTables();
      const all = Object.values(caches);
      listener = listenForChanges(config.databaseListenUrl ?? config.databaseUrl, CREDENTIALS_CHANNEL, {
        onChange: () => {
          for (const cache of all) cache.changed();
        },
        onLive: (live) => {
          for (const cache of all) cache.live(live);
        },
        warn,
      });
      store.onOwnCachedWrite?.(() => {
        for (const cache of all) cache.changed();
      });
    }
    const deps: Deps = {
      store: store.db,
      unitOfWork: unitOfWorkOn(store.db),
      dialect: store.dialect,
      sealer,
      pageKeys,
      dpopNonces: new NonceMinter(masterSecret),
      config,
      keyRing: new KeyRing(store.db, sealer),
      mailer: options.mailer ?? unsentMailer(warn),
      txtRecords: options.txtRecords ?? dnsTxtRecords(config.dnsServers),
      ...caches,
    };
    await retriedWhenConnectionsEnd(async () => {
      await ensureConsoleOrg(deps);
      if (options.warm) await store.warm?.();
    }, warn);
    return {
      deps,
      db: store.db,
      poolStats: () => store.poolStats?.() ?? null,
      reads,
      close: async () => {
        await listener?.close();
        await store.close();
      },
    };
  } catch (error) {
    await listener?.close();
    await store.close();
    throw error;
  }
}
