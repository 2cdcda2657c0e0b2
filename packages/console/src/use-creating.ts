import { useState } from 'preact/hooks';
import type { HeadAction } from './components/page-head.js';

/**
 * A list's "New …" form opened in place: whether it is open, what it made last (a secret to show once),
 * and the heading's action that opens it, which is gone while the form is open.
 */
export function useCreating<T>(label: string) {
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<T | null>(null);
  const action: HeadAction = creating
    ? null
    : {
        label,
        onClick: () => {
          setCreated(null);
          setCreating(true);
        },
      };
  return {
    creating,
    created,
    action,
    cancel: () => setCreating(false),
    /** The form is done: it closes, and what it made is shown until dismissed. */
    done: (made: T) => {
      setCreating(false);
      setCreated(made);
    },
    dismiss: () => setCreated(null),
  };
}
