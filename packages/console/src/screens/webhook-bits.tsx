import { ApiError } from '../api/client.js';
import { allWebhooks } from '../api/lists.js';
import type { Webhook } from '../api/types.js';

export const URL_HINT =
  'An absolute https URL (no user name or password in it): Tessera POSTs each matching event there.';

/** Active, or Paused: by an owner, or by Tessera after a delivery failed for good. */
export function ActiveBadge({ active }: { active: boolean }) {
  return active ? <span class="badge ok">Active</span> : <span class="badge warn">Paused</span>;
}

/** Webhooks are the API's owner-only lists: a member sees why there is nothing here. */
export function OwnersOnly() {
  return (
    <p class="notice info">
      You are a member of this organization: only its owners can see and change its webhooks.
    </p>
  );
}

/** One webhook of the org (the API has no single-webhook read: its list, every page). */
export async function loadWebhook(slug: string, id: string): Promise<Webhook> {
  const found = (await allWebhooks(slug)).find((w) => w.id === id);
  if (found) return found;
  throw new ApiError(404, 'not_found', 'No such webhook in this organization: it may have been deleted.');
}
