import type { Kysely } from 'kysely';
import { addWithDefault } from './table-parts.js';

/**
 * OpenID Connect Core §3.1.2.1 on the authorization request (DESIGN §14): what the hosted pages need
 * after the request was checked — `prompt` (space-separated, as understood), `max_age` (seconds),
 * `login_hint` (fills the login page's email field) and `response_mode` (how the answer reaches the
 * client). Requests written before this migration were plain ones: no prompt, no max_age, `query`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authorization_requests').addColumn('prompt', 'text').execute();
  await db.schema.alterTable('authorization_requests').addColumn('max_age', 'integer').execute();
  await db.schema.alterTable('authorization_requests').addColumn('login_hint', 'text').execute();
  await addWithDefault(db, 'authorization_requests', 'response_mode', 'text', 'query');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['response_mode', 'login_hint', 'max_age', 'prompt']) {
    await db.schema.alterTable('authorization_requests').dropColumn(column).execute();
  }
}
