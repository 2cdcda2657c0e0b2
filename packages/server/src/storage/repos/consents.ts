import type { Consent } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { ConsentsTable } from '../schema.js';
import { columnMap, timestampColumns } from './column-map.js';
import { orgClientRows } from './org-rows.js';

const consentColumns = columnMap<ConsentsTable, Consent>()({
  org_id: 'orgId',
  user_id: 'userId',
  client_id: 'clientId',
  scope: 'scope',
  ...timestampColumns,
});
const toConsent = consentColumns.toRecord;

export async function findConsent(store: Handle, userId: string, clientId: string): Promise<Consent | null> {
  const db = opened(store);
  const row = await db
    .selectFrom('consents')
    .selectAll()
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row ? toConsent(row) : null;
}

export async function upsertConsent(store: Handle, c: Consent): Promise<void> {
  const db = opened(store);
  await db
    .insertInto('consents')
    .values(consentColumns.toRow(c))
    .onConflict((oc) =>
      oc.columns(['user_id', 'client_id']).doUpdateSet({ scope: c.scope, updated_at: c.updatedAt }),
    )
    .execute();
}

/** Deletes every consent the user gave: the next sign-in to each client asks again. */
export async function deleteUserConsents(store: Handle, userId: string): Promise<void> {
  const db = opened(store);
  await db.deleteFrom('consents').where('user_id', '=', userId).execute();
}

/** Deletes the consents of an org's client (part of deleting it: see deleteClientRow). */
export async function deleteClientConsents(store: Handle, orgId: string, clientId: string): Promise<void> {
  const db = opened(store);
  await orgClientRows(db.deleteFrom('consents'), orgId, clientId).execute();
}
