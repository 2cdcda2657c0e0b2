import { useCallback, useEffect, useState } from 'preact/hooks';

export type Loaded<T> =
  | { state: 'loading'; reload: () => void }
  | { state: 'error'; error: unknown; reload: () => void }
  | { state: 'ok'; data: T; reload: () => void };

/**
 * Runs `load` when `keys` change (and on reload()); the newest answer wins. New keys (another page,
 * another query) show the loading state; a reload keeps the current answer on screen until the new one.
 */
export function useLoad<T>(load: () => Promise<T>, keys: unknown[]): Loaded<T> {
  const [result, setResult] = useState<
    { state: 'loading' } | { state: 'error'; error: unknown } | { state: 'ok'; data: T }
  >({
    state: 'loading',
  });
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  useEffect(() => {
    setResult({ state: 'loading' });
  }, keys);
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setResult({ state: 'ok', data }),
      (error: unknown) => current && setResult({ state: 'error', error }),
    );
    return () => {
      current = false;
    };
  }, [...keys, generation]);
  return { ...result, reload } as Loaded<T>;
}
