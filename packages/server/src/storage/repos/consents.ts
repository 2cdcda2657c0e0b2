import type { Db } from '../db.js';
import type { ConsentsTable } from '../schema.js';

export type ConsentRow = ConsentsTable;

export async function findConsent(db: Db, userId: string, clientId: string): Promise<ConsentRow | null> {
  const row = await db
    .selectFrom('consents')
    .selectAll()
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row ?? null;
}

export async function upsertConsent(db: Db, row: ConsentRow): Promise<void> {
  await db
    .insertInto('consents')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['user_id', 'client_id']).doUpdateSet({ scope: row.scope, updated_at: row.updated_at }),
    )
    .execute();
}

/** Deletes the consents of an org's client (part of deleting it: see deleteClientRow). */
export async function deleteClientConsents(db: Db, orgId: string, clientId: string): Promise<void> {
  await db.deleteFrom('consents').where('client_id', '=', clientId).where('org_id', '=', orgId).execute();
}
