import type { InvitationKind, InvitationRecord } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { InvitationsTable } from '../schema.js';
import { type Conversion, columnMap, flag, lifespanColumns, orgRowColumns } from './column-map.js';
import { after, recordsOf } from './keyed-rows.js';
import { NEWEST_FIRST, pageRows } from './paged-rows.js';
import { insertOf } from './table-records.js';

/** The role ids a stored invitation carries (a JSON array of strings; anything else counts as none). */
const roleIds: Conversion<string, string[]> = {
  read: (json) => {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  },
  write: (roles) => JSON.stringify(roles),
};

const invitationColumns = columnMap<InvitationsTable, InvitationRecord>()({
  ...orgRowColumns,
  kind: 'kind',
  email: 'email',
  email_key: 'emailKey',
  role: 'role',
  roles: ['roles', roleIds],
  token_hash: 'tokenHash',
  mailed: ['mailed', flag],
  ...lifespanColumns,
  accepted_at: 'acceptedAt',
  accepted_by: 'acceptedBy',
  revoked_at: 'revokedAt',
});
const toInvitation = invitationColumns.toRecord;
const invitations = recordsOf('invitations', toInvitation);

/** What the list may keep: pending (neither accepted nor expired), accepted, or expired. */
export type InvitationStateFilter = 'pending' | 'accepted' | 'expired';

export const insertInvitation = insertOf('invitations', invitationColumns);

/** The org's invitation `id` (withdrawn ones are gone for the API), or null. */
export const findInvitation = (store: Handle, orgId: string, id: string): Promise<InvitationRecord | null> =>
  invitations.recordWhere(store, { id, org_id: orgId, revoked_at: null });

/** The invitation whose link has this token hash, whatever its state (the page says which), or null. */
export const findInvitationByTokenHash = (
  store: Handle,
  tokenHash: string,
): Promise<InvitationRecord | null> => invitations.recordWhere(store, { token_hash: tokenHash });

/** A pending invitation of the org for this address and kind, or null. */
export const findPendingInvitation = (
  store: Handle,
  orgId: string,
  kind: InvitationKind,
  emailKey: string,
  now: number,
): Promise<InvitationRecord | null> =>
  invitations.recordWhere(store, {
    org_id: orgId,
    kind,
    email_key: emailKey,
    accepted_at: null,
    revoked_at: null,
    expires_at: after(now),
  });

/** One page of the org's invitations (not withdrawn), newest first, and how many there are. */
export async function pageInvitations(
  store: Handle,
  orgId: string,
  filter: { kind: InvitationKind | null; state: InvitationStateFilter | null; now: number },
  window: { offset: number; limit: number },
): Promise<{ rows: InvitationRecord[]; total: number }> {
  const db = opened(store);
  let query = db.selectFrom('invitations').where('org_id', '=', orgId).where('revoked_at', 'is', null);
  if (filter.kind !== null) query = query.where('kind', '=', filter.kind);
  if (filter.state === 'accepted') query = query.where('accepted_at', 'is not', null);
  if (filter.state === 'pending')
    query = query.where('accepted_at', 'is', null).where('expires_at', '>', filter.now);
  if (filter.state === 'expired')
    query = query.where('accepted_at', 'is', null).where('expires_at', '<=', filter.now);
  const { rows, total } = await pageRows(query.selectAll(), window, NEWEST_FIRST);
  return { rows: rows.map(toInvitation), total };
}

/**
 * Atomic single use: the one UPDATE that sets `accepted_at` returns the row, so exactly one caller
 * accepts a pending invitation; a used, withdrawn or expired one (or an unknown token) gives null.
 */
export const acceptInvitationRow = (
  store: Handle,
  tokenHash: string,
  now: number,
): Promise<InvitationRecord | null> =>
  invitations.updatedRecordWhere(
    store,
    { accepted_at: now },
    { token_hash: tokenHash, accepted_at: null, revoked_at: null, expires_at: after(now) },
  );

/** Names the user who accepted (known once the acceptance's transaction has them). */
export async function setInvitationAcceptedBy(store: Handle, id: string, userId: string): Promise<void> {
  await invitations.updateWhere(store, { accepted_by: userId }, { id });
}

/** Withdraws the invitation (its link then says so); false when there was none to withdraw. */
export async function revokeInvitationRow(
  store: Handle,
  orgId: string,
  id: string,
  now: number,
): Promise<boolean> {
  const revoked = await invitations.updateWhere(
    store,
    { revoked_at: now },
    { id, org_id: orgId, revoked_at: null },
  );
  return revoked > 0;
}
