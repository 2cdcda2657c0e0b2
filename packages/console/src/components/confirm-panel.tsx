import type { ComponentChildren } from 'preact';
import { ok, type Pending } from '../api/client.js';
import type { OneTimeNews } from '../news.js';
import { navigate } from '../router.js';
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

/**
 * The panel that deletes the thing its page is about (a ConfirmPanel): once confirmed, `remove` is sent;
 * when it went through, `news` leaves its line for the list to announce, and the page goes back to the
 * list at `href`.
 */
export function DeletePanel({
  remove,
  news,
  href,
  ...panel
}: {
  id: string;
  title: string;
  children: ComponentChildren;
  question: string;
  button?: string;
  remove: () => Pending;
  news?: { to: OneTimeNews; line: string };
  href: string;
}) {
  return (
    <ConfirmPanel
      {...panel}
      onConfirm={async () => {
        await ok(remove());
        news?.to.set(news.line);
        navigate(href);
      }}
    />
  );
}
