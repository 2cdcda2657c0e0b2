import type { CompiledQuery, DatabaseConnection, Driver, QueryResult } from 'kysely';

/**
 * The tables whose rows a node keeps in memory until a change is announced (domain/credential-cache.ts:
 * clients, signing keys, organizations, service accounts, and what the hosted pages read per org:
 * its texts overrides, brands, connections and second-factor policy; on PostgreSQL migrations 008,
 * 013, 056 and 060 NOTIFY each change on the credentials channel at commit).
 */
export const CACHED_TABLES = [
  'clients',
  'signing_keys',
  'organizations',
  'service_accounts',
  'org_texts',
  'brandings',
  'connections',
  'org_sign_in_policies',
] as const;

// A statement that writes one of them: INSERT INTO, UPDATE, DELETE FROM or TRUNCATE naming the table
// (quoted or not), anywhere in it (a data-modifying CTE too). Reads never match, not even `for update`.
const WRITE = new RegExp(
  `\\b(?:insert\\s+into|update|delete\\s+from|truncate(?:\\s+table)?)\\s+"?(?:${CACHED_TABLES.join('|')})"?(?![\\w"])`,
  'i',
);

/** Whether `sql` writes a table a node keeps in memory. */
export const writesCachedTable = (sql: string): boolean => WRITE.test(sql);

/**
 * `driver`, telling `committed` synchronously when this process's own change to a cached table is
 * committed: after the autocommitted statement returns, or after the COMMIT of the transaction
 * that made it, before the caller is handed the result. The NOTIFY of the same commit reaches this
 * node's own listener a moment later; by then a read here right after the write (a settings change,
 * then the next request) would have been served what the cache held before it.
 * A rolled-back transaction tells nothing.
 */
export function announcingOwnWrites(driver: Driver, committed: () => void): Driver {
  const pending = new WeakMap<DatabaseConnection, { changed: boolean }>();
  const patched = new WeakSet<DatabaseConnection>();
  const acquire = driver.acquireConnection.bind(driver);
  driver.acquireConnection = async () => {
    const connection = await acquire();
    if (!patched.has(connection)) {
      patched.add(connection);
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        const result = await execute<R>(query);
        if (writesCachedTable(query.sql)) {
          const transaction = pending.get(connection);
          if (transaction) transaction.changed = true;
          else committed();
        }
        return result;
      };
    }
    return connection;
  };
  const begin = driver.beginTransaction.bind(driver);
  driver.beginTransaction = async (connection, settings) => {
    pending.set(connection, { changed: false });
    await begin(connection, settings);
  };
  const commit = driver.commitTransaction.bind(driver);
  driver.commitTransaction = async (connection) => {
    const transaction = pending.get(connection);
    pending.delete(connection);
    await commit(connection);
    if (transaction?.changed) committed();
  };
  const rollback = driver.rollbackTransaction.bind(driver);
  driver.rollbackTransaction = async (connection) => {
    pending.delete(connection);
    await rollback(connection);
  };
  return driver;
}
