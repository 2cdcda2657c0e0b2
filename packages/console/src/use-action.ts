import { useState } from 'preact/hooks';

/**
 * A form's or a button's work: `busy` while it runs (its button disabled), and what the API refused,
 * shown by the form, cleared when it runs again.
 */
export function useAction() {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await work();
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run, setError };
}
