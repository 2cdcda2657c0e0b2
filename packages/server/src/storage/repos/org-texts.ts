import type { Locale } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import { tableOf } from './keyed-rows.js';

const texts = tableOf('org_texts');

/** One of an org's own messages (migration 050). */
export interface OrgText {
  locale: Locale;
  key: string;
  message: string;
  updatedAt: number;
}

/** The org's messages in `locale`, by key. */
export async function findOrgTexts(store: Handle, orgId: string, locale: Locale): Promise<OrgText[]> {
  const db = opened(store);
  const rows = await db
    .selectFrom('org_texts')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('locale', '=', locale)
    .orderBy('key')
    .execute();
  return rows.map((r) => ({
    locale: r.locale as Locale,
    key: r.key,
    message: r.message,
    updatedAt: Number(r.updated_at),
  }));
}

/** Sets the org's message for `key` in `locale`, replacing the one before. */
export async function upsertOrgText(store: Handle, orgId: string, text: OrgText): Promise<void> {
  const db = opened(store);
  await db
    .insertInto('org_texts')
    .values({
      org_id: orgId,
      locale: text.locale,
      key: text.key,
      message: text.message,
      updated_at: text.updatedAt,
    })
    .onConflict((oc) =>
      oc
        .columns(['org_id', 'locale', 'key'])
        .doUpdateSet({ message: text.message, updated_at: text.updatedAt }),
    )
    .execute();
}

/** Removes the org's message for `key` in `locale`; whether there was one. */
export async function deleteOrgText(
  store: Handle,
  orgId: string,
  locale: Locale,
  key: string,
): Promise<boolean> {
  return (await texts.deleteWhere(store, { org_id: orgId, locale, key })) > 0;
}
