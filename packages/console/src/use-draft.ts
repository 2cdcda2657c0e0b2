import { useState } from 'preact/hooks';

/** A form's values as one object (a draft): the values, and `set`, which changes some of them. */
export function useDraft<D>(initial: D | (() => D)) {
  const [draft, setDraft] = useState<D>(initial);
  const set = (change: Partial<D>) => setDraft((d) => ({ ...d, ...change }));
  return [draft, set] as const;
}
