import type { ServiceAccountBinding } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import { pageRows } from './paged-rows.js';

const toBinding = (r: {
  client_id: string;
  org_id: string;
  scope: string;
  created_at: number;
}): ServiceAccountBinding => ({
  clientId: r.client_id,
  orgId: r.org_id,
  scope: r.scope,
  createdAt: Number(r.created_at),
});

export async function insertServiceAccount(store: Handle, row: ServiceAccountBinding): Promise<void> {
  const db = opened(store);
  await db
    .insertInto('service_accounts')
    .values({ client_id: row.clientId, org_id: row.orgId, scope: row.scope, created_at: row.createdAt })
    .execute();
}

/** The service account whose client is `clientId`, whatever org it is bound to; or null. */
export async function findServiceAccountRow(
  store: Handle,
  clientId: string,
): Promise<ServiceAccountBinding | null> {
  const db = opened(store);
  const row = await db
    .selectFrom('service_accounts')
    .selectAll()
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row ? toBinding(row) : null;
}

/** One page of the service accounts bound to `orgId` (oldest first), and how many there are. */
export async function pageServiceAccountRows(
  store: Handle,
  orgId: string,
  window: { offset: number; limit: number },
): Promise<{ entries: ServiceAccountBinding[]; total: number }> {
  const db = opened(store);
  const { rows, total } = await pageRows(
    db.selectFrom('service_accounts').selectAll().where('org_id', '=', orgId),
    window,
    {
      by: 'created_at',
      unique: 'client_id',
    },
  );
  return { entries: rows.map(toBinding), total };
}
