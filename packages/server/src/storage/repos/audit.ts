import type { Db } from '../db.js';
import type { AuditEventsTable } from '../schema.js';

export type AuditRow = AuditEventsTable;

export async function insertAuditEvent(db: Db, row: AuditRow): Promise<void> {
  await db.insertInto('audit_events').values(row).execute();
}
