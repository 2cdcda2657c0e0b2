import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { loadPendingSignIn, type PendingSignIn } from '../../domain/sign-in/index.js';
import type { Org } from '../../domain/types.js';

/**
 * The pending sign-in a hosted page's `req` names, read once per request: the page's language
 * (its `ui_locales`), its brand (its client) and its handler each ask for it before anything is
 * written, and each would otherwise read the request and its client again (two round trips each).
 * Only a request's own reads share it; the next request reads afresh.
 */
const READ = new WeakMap<FastifyRequest, Map<string, Promise<PendingSignIn | null>>>();

/** loadPendingSignIn(deps, org, id), once per request and id. */
export function pendingOfPage(
  deps: Deps,
  org: Org,
  request: FastifyRequest,
  id: string,
): Promise<PendingSignIn | null> {
  let reads = READ.get(request);
  if (reads === undefined) {
    reads = new Map();
    READ.set(request, reads);
  }
  const key = `${org.id}\0${id}`;
  let read = reads.get(key);
  if (read === undefined) {
    read = loadPendingSignIn(deps, org, id);
    reads.set(key, read);
  }
  return read;
}
