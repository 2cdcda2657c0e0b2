import { useState } from 'preact/hooks';
import { useAction } from './use-action.js';

/**
 * A form that saves and then says so (“… saved.”): what the API refused, or, once `work` calls `done`,
 * that the save went through; both cleared when it runs again.
 */
export function useSaving() {
  const { error, run } = useAction();
  const [saved, setSaved] = useState(false);
  const save = (work: (done: () => void) => Promise<unknown>) => {
    setSaved(false);
    return run(() => work(() => setSaved(true)));
  };
  return { error, saved, save };
}
