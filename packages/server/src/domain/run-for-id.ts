import type { Handle, UnitOfWork } from '../storage/handle.js';
import { type IdKind, isIdOf } from './identifiers.js';

/**
 * `work` in one transaction of `unitOfWork`, on the thing `id` names: an id that is not of `kind`
 * names nothing and is refused with `refuse` (its 404) before the transaction opens, which on
 * SQLite would take the write lock for nothing.
 */
export function runForIdOf<R>(
  unitOfWork: UnitOfWork,
  kind: IdKind,
  id: string,
  refuse: () => never,
  work: (tx: Handle) => Promise<R>,
): Promise<R> {
  if (!isIdOf(kind, id)) refuse();
  return unitOfWork.run(work);
}
