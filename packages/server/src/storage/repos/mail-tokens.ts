import type { ExpressionBuilder } from 'kysely';
import type { MailLinkRecord, MailPurpose } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { Database, MailTokensTable } from '../schema.js';
import { columnMap, lifespanColumns } from './column-map.js';
import { purgeExpired } from './expiry.js';
import { tableOf } from './keyed-rows.js';
import { insertOf } from './table-records.js';

const linkColumns = columnMap<MailTokensTable, MailLinkRecord>()({
  token_hash: 'tokenHash',
  org_id: 'orgId',
  user_id: 'userId',
  purpose: 'purpose',
  sent_to: 'sentTo',
  ...lifespanColumns,
  used_at: 'usedAt',
});
const toMailLink = linkColumns.toRecord;
const links = tableOf('mail_tokens');

/** The link of this org and purpose by its hash, while it is live (unused, unexpired). */
const liveLink = (
  eb: ExpressionBuilder<Database, 'mail_tokens'>,
  link: { orgId: string; purpose: MailPurpose; tokenHash: string; now: number },
) =>
  eb.and([
    eb('token_hash', '=', link.tokenHash),
    eb('org_id', '=', link.orgId),
    eb('purpose', '=', link.purpose),
    eb('used_at', 'is', null),
    eb('expires_at', '>', link.now),
  ]);

export const insertMailToken = insertOf('mail_tokens', linkColumns);

/** A live (unused, unexpired) link of this org and purpose by its hash, without using it. */
export async function findLiveMailToken(
  store: Handle,
  orgId: string,
  purpose: MailPurpose,
  tokenHash: string,
  now: number,
): Promise<MailLinkRecord | null> {
  const db = opened(store);
  const row = await db
    .selectFrom('mail_tokens')
    .selectAll()
    .where((eb) => liveLink(eb, { orgId, purpose, tokenHash, now }))
    .executeTakeFirst();
  return row ? toMailLink(row) : null;
}

/**
 * Atomic single use: the one UPDATE that sets `used_at` returns the row, so exactly one caller
 * gets a live link's row; an unknown, used or expired link (or another org's or purpose's) gives null.
 */
export async function consumeMailToken(
  store: Handle,
  orgId: string,
  purpose: MailPurpose,
  tokenHash: string,
  now: number,
): Promise<MailLinkRecord | null> {
  const db = opened(store);
  const row = await db
    .updateTable('mail_tokens')
    .set({ used_at: now })
    .where((eb) => liveLink(eb, { orgId, purpose, tokenHash, now }))
    .returningAll()
    .executeTakeFirst();
  return row ? toMailLink(row) : null;
}

/** Marks every live link of the user for `purpose` used: a newer one, or a done reset, retires them. */
export async function retireMailTokens(store: Handle, userId: string, purpose: MailPurpose, now: number) {
  await links.updateWhere(store, { used_at: now }, { user_id: userId, purpose, used_at: null });
}

export async function purgeMailTokens(store: Handle, expiredBefore: number): Promise<void> {
  const db = opened(store);
  await purgeExpired(db.deleteFrom('mail_tokens'), expiredBefore);
}
