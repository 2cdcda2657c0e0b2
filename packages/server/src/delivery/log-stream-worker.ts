import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Deps } from '../domain/context.js';
import {
  MAX_BATCH_BYTES,
  MAX_BATCH_ENTRIES,
  type SerializedEntry,
  serializeEntry,
  streamRequest,
  streamRetryDelay,
} from '../domain/log-streams/index.js';
import type { ClaimedLogStream, StreamCursor, StreamEntry } from '../domain/types.js';
import { readEntriesAfter } from '../storage/repos/audit-events.js';
import {
  advanceCursor,
  claimDueStreams,
  recordStreamFailure,
  releaseStream,
} from '../storage/repos/log-streams.js';
import { HttpsSender } from './https-sender.js';
import type { SendingWorkerOptions } from './worker.js';
import { type WorkerClock, wallClock } from './worker-clock.js';
import { silentLog, type WorkerLog } from './worker-log.js';
import { WorkerWait } from './worker-wait.js';

export interface LogStreamWorkerOptions extends SendingWorkerOptions {
  /** Streams sent to at once by this worker (default 8). */
  concurrency?: number;
  /** How long a claim holds before another worker may take the stream (default twice the timeout). */
  leaseMs?: number;
  /** Most entries in one batch (default MAX_BATCH_ENTRIES). */
  batchEntries?: number;
}

/**
 * The audit-log stream worker (DESIGN §19). Each poll claims the active, due streams that have
 * entries past their cursor (a claim is a lease, taken as webhook deliveries are: SKIP LOCKED on
 * PostgreSQL, one atomic UPDATE on SQLite), so several nodes and workers share the streams and one
 * stream is sent by one worker at a time, in order. For a claimed stream it reads the next batch
 * after the cursor (storage/repos/log-streams.ts: never past a transaction still open), sends it,
 * and moves the cursor past it only once the destination accepted it (2xx), renewing the lease; it
 * goes on while there is more. A failure records the error and lets the stream go until its backoff
 * ends. A worker that dies mid-batch leaves the cursor before that batch: once the lease ends another
 * worker sends it again, the same entries with the same ids (at least once).
 */
export class LogStreamWorker {
  readonly #deps: Pick<Deps, 'store' | 'sealer' | 'config'>;
  readonly #sender: HttpsSender;
  readonly #concurrency: number;
  /** Its sleeps between looks, and the waits for streams' backoffs to end. */
  readonly #wait: WorkerWait;
  readonly #leaseMs: number;
  readonly #timeoutMs: number;
  readonly #batchEntries: number;
  readonly #random: () => number;
  readonly #log: WorkerLog;
  readonly #clock: WorkerClock;
  readonly #running = new Set<Promise<void>>();
  #stopping = false;
  #loop: Promise<void> | null = null;

  constructor(deps: Pick<Deps, 'store' | 'sealer' | 'config'>, options: LogStreamWorkerOptions = {}) {
    this.#deps = deps;
    this.#concurrency = options.concurrency ?? 8;
    this.#timeoutMs = options.timeoutMs ?? deps.config.webhookTimeoutMs;
    this.#leaseMs = options.leaseMs ?? 2 * this.#timeoutMs;
    this.#batchEntries = Math.min(options.batchEntries ?? MAX_BATCH_ENTRIES, MAX_BATCH_ENTRIES);
    this.#random = options.random ?? Math.random;
    this.#log = options.log ?? silentLog;
    this.#clock = options.clock ?? wallClock;
    this.#wait = new WorkerWait(this.#clock, options);
    this.#sender = new HttpsSender({
      allowPrivate: deps.config.outboundAllowPrivate,
      timeoutMs: this.#timeoutMs,
      connectionsPerOrigin: this.#concurrency,
      ca: options.ca,
      userAgent: 'Tessera-LogStreams/1',
      ...(options.resolver ? { resolver: options.resolver } : {}),
    });
  }

  start(): this {
    if (this.#loop) return this;
    // An audit entry of an org with an active stream sends a NOTIFY at commit (migration 051).
    this.#wait.listen(this.#deps, 'streams', this.#log, () => this.#wake());
    this.#loop = this.#run();
    return this;
  }

  /** Stops claiming, lets the batches on the wire finish (each bounded by the timeout), lets every stream go, and closes. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#wake();
    await this.#loop;
    await Promise.allSettled([...this.#running]);
    await this.#wait.close();
    this.#sender.close();
  }

  async #run(): Promise<void> {
    while (!this.#stopping) {
      const room = this.#concurrency - this.#running.size;
      if (room > 0) {
        try {
          const now = this.#clock.now();
          const token = randomUUID();
          const claimed = await claimDueStreams(this.#deps.store, {
            limit: room,
            now,
            leaseUntil: now + this.#leaseMs,
            token,
          });
          for (const stream of claimed) this.#track(this.#send(stream, token, now + this.#leaseMs));
        } catch (error) {
          this.#log.error({ err: { message: (error as Error).message } }, 'claiming log streams failed');
        }
      }
      const poll = this.#wait.poll * (0.8 + 0.4 * this.#random());
      const looked = performance.now();
      if (!this.#stopping) await this.#wait.sleep(poll);
      // Woken again and again (a NOTIFY per committing writer): one look per MIN_LOOK_GAP_MS at most
      // (real time: a rate, not a schedule a test's clock would move).
      const gap = looked + MIN_LOOK_GAP_MS - performance.now();
      if (gap > 0 && !this.#stopping) await new Promise<void>((r) => setTimeout(r, gap));
    }
  }

  /** Look for streams now (a NOTIFY, a free slot, a backoff's end, stopping). */
  #wake(): void {
    this.#wait.wake();
  }

  #track(run: Promise<void>): void {
    const tracked = run.finally(() => {
      this.#running.delete(tracked);
      // A slot is free: look again at once rather than at the next poll.
      this.#wake();
    });
    this.#running.add(tracked);
  }

  /** Sends a claimed stream's batches while it has entries, the destination accepts them and the lease holds. */
  async #send(stream: ClaimedLogStream, token: string, leaseUntil: number): Promise<void> {
    const store = this.#deps.store;
    const release = () =>
      releaseStream(store, { id: stream.id, token, nextAttemptAt: this.#clock.now() }).catch(() => {});
    let secret: string;
    try {
      secret = this.#deps.sealer.open(stream.sealedSecret);
    } catch {
      await this.#failed(stream, token, 'the stream secret cannot be read', null);
      return;
    }
    // The lease as last written: the claim's, then each advance's once it is stored.
    let lease = leaseUntil;
    /** The batch after `cursor`, read, serialized and made into its request (body compressed when asked). */
    const prepare = async (cursor: StreamCursor | null): Promise<Prepared | null> => {
      const batch = cutBySize(
        await readEntriesAfter(store, {
          orgId: stream.orgId,
          cursor,
          from: stream.backfillFrom,
          limit: this.#batchEntries,
        }),
      );
      const last = batch.at(-1);
      if (!last) return null;
      const request = streamRequest(stream, secret, batch, Math.floor(this.#clock.now() / 1000));
      const headers = request.gzip ? { ...request.headers, 'content-encoding': 'gzip' } : request.headers;
      // Compressed on the thread pool, not the event loop (a batch is up to 800 kB); else made UTF-8 here,
      // while the batch before is on the wire, rather than by the connection when it is sent.
      const body = request.gzip ? await gzipAsync(request.body) : Buffer.from(request.body);
      return {
        url: request.url,
        headers,
        body,
        entries: batch.length,
        cursor: { order: last.order, id: last.id },
      };
    };
    // While a batch is on the wire (from the moment its last byte is handed to the connection until its
    // answer) the cursor is moved past the batch before it and the next one is read, serialized and made
    // into its request: between an answer and the next request nothing is left to do but send. The one
    // after that is read as soon as the next is ready, so a read that takes longer than one request (a
    // busy database) has the time of two. Still one batch on the wire at a time, and the cursor moves
    // only past what was accepted, in order; a batch read ahead and not sent is dropped, never skipped.
    // Each step is awaited below; `quiet` keeps a rejection meanwhile from counting as unhandled.
    const quiet = <T>(p: Promise<T>) => {
      p.catch(() => {});
      return p;
    };
    let next = quiet(prepare(stream.cursor));
    /** The batch after `next`, read once `next` is ready (from the first batch sent on). */
    let ahead: Promise<Prepared | null> | null = null;
    /** The last batch accepted whose cursor is not stored yet. */
    let accepted: { cursor: StreamCursor; entries: number; at: number } | null = null;
    /** The last cursor write: false once the claim was found lost. */
    let advanced: Promise<boolean> = Promise.resolve(true);
    const record = () => {
      if (accepted === null) return;
      const { cursor, entries, at } = accepted;
      accepted = null;
      const until = this.#clock.now() + this.#leaseMs;
      advanced = quiet(
        advanceCursor(store, {
          id: stream.id,
          token,
          cursor,
          sent: entries,
          now: at,
          leaseUntil: until,
        }).then((held) => {
          if (held) lease = until;
          return held;
        }),
      );
    };
    try {
      for (;;) {
        const batch = await next;
        // A batch must be answered before the lease ends, or another worker could send after it.
        if (!batch || this.#stopping || lease - this.#clock.now() < this.#timeoutMs) {
          record();
          if (await advanced) await release();
          return;
        }
        let onSent = () => {};
        const sent = new Promise<void>((resolve) => {
          onSent = resolve;
        });
        const answer = this.#sender.post(batch.url, batch.headers, batch.body, 'application/json', onSent);
        await sent;
        record();
        next = ahead ?? quiet(prepare(batch.cursor));
        ahead = quiet(next.then((prepared) => (prepared ? prepare(prepared.cursor) : null)));
        const result = await answer;
        // The lease ran out and another worker may hold the stream now: it goes on from the stored cursor.
        if (!(await advanced)) return;
        if (result.status === null || result.status < 200 || result.status >= 300) {
          await this.#failed(stream, token, result.error ?? `HTTP ${result.status}`, result.retryAfterMs);
          return;
        }
        accepted = { cursor: batch.cursor, entries: batch.entries, at: this.#clock.now() };
        this.#log.debug(
          { streamId: stream.id, entries: batch.entries, durationMs: result.durationMs },
          'log stream batch sent',
        );
      }
    } catch (error) {
      // Nothing recorded: the claim expires after the lease and the stream is taken up again.
      this.#log.error(
        { streamId: stream.id, err: { message: (error as Error).message } },
        'log stream batch could not be sent or recorded',
      );
    } finally {
      // No read outlives the stream's turn.
      await ahead?.catch(() => null);
    }
  }

  async #failed(stream: ClaimedLogStream, token: string, error: string, retryAfterMs: number | null) {
    const now = this.#clock.now();
    const failures = stream.failures + 1;
    const nextAttemptAt = now + streamRetryDelay(failures, retryAfterMs, this.#random);
    await recordStreamFailure(this.#deps.store, { id: stream.id, token, error, now, nextAttemptAt }).catch(
      () => {},
    );
    // Look again when the backoff ends, not at a fallback poll long after.
    if (!this.#stopping) this.#wait.wakeAt(nextAttemptAt);
    this.#log.warn({ streamId: stream.id, failures, error }, 'log stream batch failed');
  }
}

const gzipAsync = promisify(gzip);

/** A batch ready to send: its request, how many entries it holds, and the cursor past its last. */
interface Prepared {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  entries: number;
  cursor: StreamCursor;
}

/** The shortest time between two looks for streams (NOTIFYs come once per committing writer). */
const MIN_LOOK_GAP_MS = 50;

/**
 * The longest run of `entries`, serialized once, within MAX_BATCH_BYTES of UTF-8 (at least one: an entry
 * is never held back for its size), each with its place in the streams' order. Sizes are counted by an
 * upper bound (3 bytes a UTF-16 unit) while that stays under the limit, exactly once it would not.
 */
function cutBySize(entries: readonly StreamEntry[]): SerializedEntry[] {
  const batch: SerializedEntry[] = [];
  let bytes = 0;
  let exact = false;
  for (const entry of entries) {
    const serialized = serializeEntry(entry);
    let size = exact ? Buffer.byteLength(serialized.json) : serialized.json.length * 3;
    if (!exact && bytes + size > MAX_BATCH_BYTES) {
      exact = true;
      bytes = batch.reduce((sum, e) => sum + Buffer.byteLength(e.json), 0);
      size = Buffer.byteLength(serialized.json);
    }
    if (batch.length > 0 && bytes + size > MAX_BATCH_BYTES) break;
    batch.push(serialized);
    bytes += size;
  }
  return batch;
}
