import type { Handle } from '../../storage/handle.js';
import type { ScimCaller } from './deps.js';
import { applyPatch, type Op, patchOperations } from './patch.js';
import { changeAtVersion, type ScimWrite, type Versioned } from './versions.js';

/** What PUT and PATCH of a resource type are made of (RFC 7644 §3.5). */
export interface Replaceable<V, I> extends Versioned<V> {
  /** A resource as a body gives it (PUT's, or what PATCH made of the current one), checked: or 400. */
  input(body: unknown): I;
  /** The current resource as PATCH operations apply to it: as answered, without what is only shown. */
  patchable(current: V): Record<string, unknown>;
  /** Refuses the operations PATCH may not do on this type (before anything is read). */
  refuse?(ops: readonly Op[]): void;
  /** Stores `input` in place of the current resource, at its next version. */
  replaceWith(tx: Handle, caller: ScimCaller, current: V, input: I): Promise<V>;
}

/** PUT: the resource replaced by the body, at the version `If-Match` names. */
export const replaceOf =
  <V, I>(type: Replaceable<V, I>): ScimWrite<V> =>
  async (deps, caller, id, body, ifMatch) => {
    const input = type.input(body);
    return changeAtVersion(deps, caller, type, { id, ifMatch }, (tx, current) =>
      type.replaceWith(tx, caller, current, input),
    );
  };

/** PATCH: the operations applied to the current resource, which is then replaced by the result, as by PUT. */
export const patchOf =
  <V, I>(type: Replaceable<V, I>): ScimWrite<V> =>
  async (deps, caller, id, body, ifMatch) => {
    const ops = patchOperations(body);
    type.refuse?.(ops);
    return changeAtVersion(deps, caller, type, { id, ifMatch }, (tx, current) =>
      type.replaceWith(tx, caller, current, type.input(applyPatch(type.patchable(current), ops))),
    );
  };
