import type { ComponentChildren } from 'preact';
import { useAction } from '../use-action.js';
import { ConfirmButton } from './confirm-button.js';
import { ErrorNotice } from './notices.js';

/**
 * A panel of one action that asks once more in place (delete, rotate): its heading, what it does
 * (`children`), what the API refused, and the button; `onConfirm` does the work.
 */
export function ConfirmPanel({
  id,
  title,
  children,
  question,
  confirmLabel = 'Yes, delete it',
  button,
  onConfirm,
}: {
  id: string;
  title: string;
  children: ComponentChildren;
  question: string;
  confirmLabel?: string;
  /** The button's words (default: the title). */
  button?: string;
  onConfirm: () => Promise<unknown>;
}) {
  const action = useAction();
  return (
    <section class="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
      <ErrorNotice error={action.error} />
      <ConfirmButton
        question={question}
        confirmLabel={confirmLabel}
        onConfirm={async () => {
          await action.run(onConfirm);
        }}
      >
        {button ?? title}
      </ConfirmButton>
    </section>
  );
}
