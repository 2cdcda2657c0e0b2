import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/** A destructive action asks once more, in place, before it runs. */
export function ConfirmButton({
  children,
  question,
  confirmLabel,
  onConfirm,
  danger = true,
}: {
  children: ComponentChildren;
  question: string;
  confirmLabel: string;
  onConfirm: () => Promise<void> | void;
  danger?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <button type="button" class={danger ? 'danger' : 'secondary'} onClick={() => setAsking(true)}>
        {children}
      </button>
    );
  }
  return (
    <fieldset class="confirm" aria-label={question}>
      <span>{question}</span>
      <button
        type="button"
        class={danger ? 'danger' : ''}
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" class="secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </fieldset>
  );
}
