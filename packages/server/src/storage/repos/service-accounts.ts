import type { ServiceAccountBinding } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { ServiceAccountsTable } from '../schema.js';
import { columnMap } from './column-map.js';
import { recordsOf } from './keyed-rows.js';
import { pageRows } from './paged-rows.js';
import { insertOf } from './table-records.js';

const bindingColumns = columnMap<ServiceAccountsTable, ServiceAccountBinding>()({
  client_id: 'clientId',
  org_id: 'orgId',
  scope: 'scope',
  created_at: 'createdAt',
});
const toBinding = bindingColumns.toRecord;
const bindings = recordsOf('service_accounts', toBinding);

export const insertServiceAccount = insertOf('service_accounts', bindingColumns);

/** The service account whose client is `clientId`, whatever org it is bound to; or null. */
export const findServiceAccountRow = (
  store: Handle,
  clientId: string,
): Promise<ServiceAccountBinding | null> => bindings.recordWhere(store, { client_id: clientId });

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
