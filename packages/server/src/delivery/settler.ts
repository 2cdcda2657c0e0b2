import { newSortableId } from '../crypto/random.js';
import { disableWebhook } from '../domain/directory/index.js';
import type { ClaimedDelivery, DeliveryAttempt, DeliveryTarget } from '../domain/types.js';
import type { Db, Dialect } from '../storage/db.js';
import type { Handle } from '../storage/handle.js';
import { dialectOf, opened } from '../storage/opened.js';
import {
  claimDue,
  existingDeliveries,
  insertAttempts,
  type Settlement,
  settleAndClaimOnPostgres,
  settleDeliveries,
} from '../storage/repos/webhook-deliveries.js';
import { loadDeliveryTargets } from '../storage/repos/webhooks.js';

export interface SettleRequest {
  settlement: Settlement;
  /** The attempt's log entry; null when nothing was sent (a skipped or handed-back delivery). */
  attempt: Omit<DeliveryAttempt, 'id' | 'deliveryId'> | null;
  /** The webhook, for disabling it when the delivery failed for good. */
  target: DeliveryTarget | undefined;
}

export interface Settled {
  /** The claim still held and the delivery took the new state. */
  held: boolean;
  /** This settlement disabled its webhook. */
  disabled: boolean;
}

export interface ClaimRequest {
  limit: number;
  now: number;
  leaseUntil: number;
  token: string;
}

export interface Claimed {
  deliveries: ClaimedDelivery[];
  /** Their webhooks, read once for the batch (deleted ones are absent). */
  targets: Map<string, DeliveryTarget>;
}

/** Most settlements written by one statement. */
const MAX_BATCH = 128;
/**
 * How long settlements wait for company when no claim is waiting: the worker's next claim usually
 * comes within a few milliseconds and takes them along. A crash loses at most this much settling,
 * and those deliveries are sent again (at least once).
 */
const SETTLE_WAIT_MS = 10;

interface Waiting<T, R> {
  request: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * The delivery worker's one writer, a group commit: every outcome that arrives while a write runs
 * (or within SETTLE_WAIT_MS) is settled by the next write, and the worker's next claim rides in
 * that same write (one statement on PostgreSQL, one transaction on SQLite). A busy worker so commits once per batch of deliveries, not twice
 * per delivery, which on both databases was most of a delivery's cost.
 */
export class Settler {
  readonly #db: Db;
  readonly #dialect: Dialect;
  readonly #settlements: Waiting<SettleRequest, Settled>[] = [];
  #claim: Waiting<ClaimRequest, Claimed> | null = null;
  #draining = false;
  #timer: NodeJS.Timeout | null = null;

  constructor(store: Handle) {
    this.#db = opened(store);
    this.#dialect = dialectOf(store);
  }

  settle(request: SettleRequest): Promise<Settled> {
    return new Promise<Settled>((resolve, reject) => {
      this.#settlements.push({ request, resolve, reject });
      this.#schedule();
    });
  }

  /** Claims due deliveries after the settlements queued before it, in the same transaction. One at a time. */
  claim(request: ClaimRequest): Promise<Claimed> {
    if (this.#claim) return Promise.reject(new Error('a claim is already waiting'));
    return new Promise<Claimed>((resolve, reject) => {
      this.#claim = { request, resolve, reject };
      this.#schedule();
    });
  }

  /** A write starts at once for a claim or a full batch, else after SETTLE_WAIT_MS; one at a time. */
  #schedule(): void {
    if (this.#draining) return;
    const now = this.#claim !== null || this.#settlements.length >= MAX_BATCH;
    if (!now) {
      this.#timer ??= setTimeout(() => this.#start(), SETTLE_WAIT_MS);
      return;
    }
    this.#start();
  }

  #start(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#draining) return;
    this.#draining = true;
    setImmediate(() => void this.#drain());
  }

  /** Writes at least once, then again while a claim or a full batch waits; the rest waits its time. */
  async #drain(): Promise<void> {
    do {
      const batch = this.#settlements.splice(0, MAX_BATCH);
      const claim = this.#claim;
      this.#claim = null;
      try {
        const { settled, claimed } = await this.#write(
          batch.map((b) => b.request),
          claim?.request ?? null,
        );
        for (const [i, b] of batch.entries()) b.resolve(settled[i] as Settled);
        if (claim && claimed) claim.resolve(claimed);
      } catch (error) {
        for (const b of batch) b.reject(error);
        claim?.reject(error);
      }
    } while (this.#claim !== null || this.#settlements.length >= MAX_BATCH);
    this.#draining = false;
    if (this.#settlements.length > 0) this.#schedule();
  }

  async #write(requests: readonly SettleRequest[], claim: ClaimRequest | null) {
    // What this write settles is claimed by the next one, not this one (no row changes twice).
    const claimOptions = claim && { ...claim, exclude: requests.map((r) => r.settlement.id) };
    // PostgreSQL: one statement, one round trip; but a failure that disables its webhook takes the
    // transaction below, so the webhook and its audit entry change with the delivery.
    if (this.#dialect === 'postgres' && !requests.some((r) => r.settlement.status === 'failed')) {
      const result = await settleAndClaimOnPostgres(
        this.#db,
        requests.map((r) => r.settlement),
        attemptsLogged(requests),
        claimOptions,
      );
      return {
        settled: requests.map((r) => ({ held: result.held.has(r.settlement.id), disabled: false })),
        claimed: claim && {
          deliveries: result.claimed,
          targets: new Map(result.targets.map((t) => [t.id, t])),
        },
      };
    }
    const claimIn = async (db: Db): Promise<Claimed | null> => {
      if (!claimOptions) return null;
      const deliveries = await claimDue(db, this.#dialect, claimOptions);
      const targets = await loadDeliveryTargets(db, [...new Set(deliveries.map((d) => d.webhookId))]);
      return { deliveries, targets };
    };
    // A claim alone needs no transaction: its UPDATE is one statement.
    if (requests.length === 0) return { settled: [], claimed: await claimIn(this.#db) };
    return this.#db.transaction().execute(async (trx) => {
      const settled = await settleBatch(trx, this.#dialect, requests);
      return { settled, claimed: await claimIn(trx) };
    });
  }
}

/** The attempts' log entries of these settlements (none for one that sent nothing). */
function attemptsLogged(requests: readonly SettleRequest[]): DeliveryAttempt[] {
  return requests.flatMap((r) =>
    r.attempt
      ? [{ id: newSortableId('wda', r.settlement.now), deliveryId: r.settlement.id, ...r.attempt }]
      : [],
  );
}

/**
 * Settles a batch in the caller's transaction: the states (only where the claim holds), the
 * attempts' log entries (unless the delivery itself is gone: it was deleted with its webhook), and
 * a webhook disabled where a held delivery failed for good.
 */
async function settleBatch(
  trx: Db,
  dialect: Dialect,
  requests: readonly SettleRequest[],
): Promise<Settled[]> {
  const held = await settleDeliveries(
    trx,
    requests.map((r) => r.settlement),
  );
  const lost = requests.filter((r) => r.attempt && !held.has(r.settlement.id)).map((r) => r.settlement.id);
  const existing = await existingDeliveries(trx, dialect, lost);
  await insertAttempts(
    trx,
    attemptsLogged(requests).filter((a) => held.has(a.deliveryId) || existing.has(a.deliveryId)),
  );
  const results: Settled[] = [];
  for (const r of requests) {
    const isHeld = held.has(r.settlement.id);
    const disabled =
      isHeld && r.settlement.status === 'failed' && r.target
        ? await disableWebhook(trx, r.target, r.settlement.now)
        : false;
    results.push({ held: isHeld, disabled });
  }
  return results;
}
