import { randomBytes } from 'node:crypto';
import {
  deleteWebhook as deleteRow,
  findWebhook,
  insertWebhook,
  listWebhooks as listRows,
  updateWebhookRow,
} from '../../storage/repos/webhooks.js';
import { fieldsOf, isoTimesOf } from '../audit/snapshot-fields.js';
import { auditTrail } from '../audit/trail.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { newResourceId } from '../identifiers.js';
import { type PageAsked, pageOfAll } from '../paging.js';
import { runForIdOf } from '../run-for-id.js';
import type { Actor, Org, Webhook } from '../types.js';
import type { DirectoryDeps } from './deps.js';

export type { Webhook };

export interface NewWebhook {
  /** Already checked: an https URL. */
  url: string;
  /** Already checked: 1–50 routing-key patterns. */
  events: string[];
}

/** The audit snapshot: camelCase, never the secret. */
const webhookSnapshot = (w: Webhook) => ({
  ...fieldsOf(w, ['id', 'url', 'events', 'active']),
  ...isoTimesOf(w, ['createdAt', 'updatedAt']),
});

/** `webhook.created|updated|deleted`, also when deliveries disable one (webhook-disable.ts). */
export const webhookAudit = auditTrail('webhook', webhookSnapshot);

/** A Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes (DESIGN §6). */
const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Creates an active webhook and its `webhook.created` entry in one transaction. The secret is
 * returned here once and stored only sealed; nothing else ever reads it back out but delivery.
 */
export async function createWebhook(
  deps: DirectoryDeps,
  org: Org,
  input: NewWebhook,
  actor: Actor,
): Promise<{ webhook: Webhook; secret: string }> {
  const now = clock.now();
  const webhook: Webhook = {
    id: newResourceId('webhook'),
    orgId: org.id,
    url: input.url,
    events: [...new Set(input.events)],
    active: true,
    createdAt: now,
    updatedAt: now,
  };
  const secret = newSigningSecret();
  await deps.unitOfWork.run(async (tx) => {
    await insertWebhook(tx, webhook, deps.sealer.seal(secret));
    await webhookAudit.created(tx, { orgId: org.id, actor, at: now }, webhook);
  });
  return { webhook, secret };
}

/** One page of the org's webhooks, oldest first (an org has few: the page is cut in memory). */
export async function listWebhooks(
  deps: DirectoryDeps,
  org: Org,
  paging: PageAsked,
): Promise<{ entries: Webhook[]; total: number }> {
  return pageOfAll(await listRows(deps.store, org.id), paging);
}

const noSuchWebhook = () => fail('webhook.not_found', 'no such webhook');

/** Deletes one of the org's webhooks with its `webhook.deleted` entry; 404 for any other id. */
export async function deleteWebhook(deps: DirectoryDeps, org: Org, id: string, actor: Actor): Promise<void> {
  await runForIdOf(deps.unitOfWork, 'webhook', id, noSuchWebhook, async (tx) => {
    const deleted = (await deleteRow(tx, org.id, id)) ?? noSuchWebhook();
    await webhookAudit.deleted(tx, { orgId: org.id, actor }, deleted);
  });
}

/** What an update may change; an absent field keeps its value. */
export interface WebhookChanges {
  /** Already checked: an https URL. */
  url?: string;
  /** Already checked: 1–50 routing-key patterns. */
  events?: string[];
  active?: boolean;
}

/**
 * Updates one of the org's webhooks (404 for any other id) and records `webhook.updated` with
 * `previous` and `changes`; nothing is written when nothing differs. `active: true` turns a
 * webhook that deliveries disabled back on: events from then on are delivered to it again.
 */
export async function updateWebhook(
  deps: DirectoryDeps,
  org: Org,
  id: string,
  changes: WebhookChanges,
  actor: Actor,
): Promise<Webhook> {
  return runForIdOf(deps.unitOfWork, 'webhook', id, noSuchWebhook, async (tx) => {
    const before = (await findWebhook(tx, org.id, id)) ?? noSuchWebhook();
    const after: Webhook = {
      ...before,
      url: changes.url ?? before.url,
      events: changes.events ? [...new Set(changes.events)] : before.events,
      active: changes.active ?? before.active,
    };
    if (JSON.stringify(after) === JSON.stringify(before)) return before;
    // Strictly later than the last write: the routing tables notice a change by `updated_at`.
    const now = Math.max(clock.now(), before.updatedAt + 1);
    after.updatedAt = now;
    await updateWebhookRow(tx, after);
    await webhookAudit.updated(tx, { orgId: org.id, actor, at: now }, before, after);
    return after;
  });
}
