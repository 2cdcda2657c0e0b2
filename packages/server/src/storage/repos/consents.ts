import type { Consent } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { ConsentsTable } from '../schema.js';
import { columnMap, timestampColumns } from './column-map.js';
import { recordsOf } from './keyed-rows.js';
import { orgClientRowsDeleter } from './table-records.js';

const consentColumns = columnMap<ConsentsTable, Consent>()({
  org_id: 'orgId',
  user_id: 'userId',
  client_id: 'clientId',
  scope: 'scope',
  ...timestampColumns,
});
const toConsent = consentColumns.toRecord;
const consents = recordsOf('consents', toConsent);

export const findConsent = (store: Handle, userId: string, clientId: string): Promise<Consent | null> =>
  consents.recordWhere(store, { user_id: userId, client_id: clientId });

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
  await consents.deleteWhere(store, { user_id: userId });
}

/** Deletes the consents of an org's client (part of deleting it: see deleteClientRow). */
export const deleteClientConsents = orgClientRowsDeleter('consents');
