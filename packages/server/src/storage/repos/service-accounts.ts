import type { ServiceAccountBinding } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import { inListOrder, nearerEnd, readDirection } from './list-window.js';

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
  const { n } = await db
    .selectFrom('service_accounts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('org_id', '=', orgId)
    .executeTakeFirstOrThrow();
  const total = Number(n);
  const read = nearerEnd(total, window);
  if (read === null) return { entries: [], total };
  const direction = readDirection(read);
  const rows = inListOrder(
    read,
    await db
      .selectFrom('service_accounts')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('created_at', direction)
      .orderBy('client_id', direction)
      .limit(read.limit)
      .offset(read.offset)
      .execute(),
  );
  return { entries: rows.map(toBinding), total };
}
