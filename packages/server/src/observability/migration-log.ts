import type { Logger } from './logger.js';

/**
 * What a start applied to the schema: one `migrated` line per migration, in the order they ran, each
 * naming its migration (`{"migration":"038-resource-grants"}`), so an upgrade's log can be searched
 * for one of them. A start with nothing to apply writes none.
 */
export const logMigrations = (log: Logger, names: readonly string[]): void => {
  for (const migration of names) log.info({ migration }, 'migrated');
};
