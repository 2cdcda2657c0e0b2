import type { ComponentChildren } from 'preact';
import { Form } from './fields.js';
import { Done, ErrorNotice } from './notices.js';

/**
 * A form in a panel of its own: its heading (the form's name too), what the API refused, what the last
 * submit did, the fields, then `submit` and, where the form can be closed, Cancel. A long form says what
 * was refused under its fields, beside its buttons (`errorBelow`). Without `id` the form is its page's
 * own, under the page's heading: it has none of its own, `title` names the form only.
 */
export function FormPanel({
  id,
  title,
  submit,
  state,
  onSubmit,
  onCancel,
  children,
  class: className = 'panel',
  buttonsClass = 'actions',
  errorBelow = false,
}: {
  id?: string;
  title: string;
  /** The submit button's text. */
  submit: string;
  state: { error: unknown; busy: boolean; saved?: string | null };
  onSubmit: () => void;
  onCancel?: () => void;
  children: ComponentChildren;
  class?: string;
  buttonsClass?: string;
  errorBelow?: boolean;
}) {
  const form = (
    <>
      {errorBelow ? null : <ErrorNotice error={state.error} />}
      {state.saved ? <Done>{state.saved}</Done> : null}
      <Form label={title} onSubmit={onSubmit}>
        {children}
        {errorBelow ? <ErrorNotice error={state.error} /> : null}
        <div class={buttonsClass}>
          <button type="submit" disabled={state.busy}>
            {submit}
          </button>
          {onCancel ? (
            <button type="button" class="secondary" onClick={onCancel}>
              Cancel
            </button>
          ) : null}
        </div>
      </Form>
    </>
  );
  if (id === undefined) return <div class={className}>{form}</div>;
  return (
    <section class={className} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {form}
    </section>
  );
}
