import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Work a page starts only once its answer has gone out: looking an address up and mailing it.
 * The answer cannot then depend on whether the address is known, nor take longer when it is (no
 * timing tell). Jobs run one at a time, in the order their answers went out, per app; at most
 * MAX_WAITING wait, past which a job is dropped with a warning (a flood cannot grow memory).
 */
const MAX_WAITING = 1000;

interface Queue {
  tail: Promise<void>;
  waiting: number;
}

const queues = new WeakMap<object, Queue>();

/** Runs `job` after `reply` has been sent (or the client went away); its failure is logged, not thrown. */
export function afterResponse(
  owner: object,
  request: FastifyRequest,
  reply: FastifyReply,
  what: string,
  job: () => Promise<void>,
): void {
  let queue = queues.get(owner);
  if (!queue) {
    queue = { tail: Promise.resolve(), waiting: 0 };
    queues.set(owner, queue);
  }
  const q = queue;
  if (q.waiting >= MAX_WAITING) {
    request.log.warn({ job: what }, 'too many mails waiting: one was dropped');
    return;
  }
  q.waiting += 1;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    q.tail = q.tail
      .then(job)
      .catch((error: unknown) => {
        const err = error as { name?: unknown; code?: unknown };
        const type = typeof err.name === 'string' ? err.name : 'Error';
        request.log.warn({ job: what, err: { type, code: err.code } }, 'work after the answer failed');
      })
      .finally(() => {
        q.waiting -= 1;
      });
  };
  reply.raw.once('finish', start);
  reply.raw.once('close', start);
}
