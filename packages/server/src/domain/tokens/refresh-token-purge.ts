import type { Handle } from '../../storage/handle.js';
import { purgeRefreshTokens } from '../../storage/repos/refresh-tokens.js';
import { purgeAtMostEveryMinute } from '../purge-schedule.js';

/**
 * Expired refresh tokens are deleted at most once a minute per process, on a refresh, rather than on
 * every refresh: the delete is a write of its own, and on SQLite every write takes the one connection
 * and the file's write lock, so deleting on each rotation made concurrent refreshes wait for each other
 * (issue #32). An expired token that is still stored is refused all the same.
 */
export function purgeExpiredRefreshTokens(db: Handle, now: number): Promise<void> {
  return purgeAtMostEveryMinute(db, 'refresh_tokens', now, (on) => purgeRefreshTokens(on, now));
}
