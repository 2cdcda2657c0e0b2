import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useAction } from '../use-action.js';
import { useDraft } from '../use-draft.js';
import { FormPanel } from './form-panel.js';

/**
 * Saving an edit form: only what changed is sent (`changes` empty: nothing is, and the form says so);
 * then `done` ("Changes saved.") and `onSaved`, or what the API refused.
 */
export function useSave(onSaved: () => void, done = 'Changes saved.') {
  const action = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  const save = async (changes: object, send: () => Promise<unknown>) => {
    action.setError(null);
    setSaved(null);
    if (Object.keys(changes).length === 0) {
      setSaved('Nothing changed: there was nothing to save.');
      return;
    }
    if (await action.run(send)) {
      setSaved(done);
      onSaved();
    }
  };
  return { ...action, saved, save };
}

/**
 * An edit form's draft, drawn from the stored thing (useDraft), and its saving (useSave); `news`: what
 * the last save said before it remounted the form.
 */
export function useEditDraft<D>(initial: () => D, onSaved: () => void, news: string | null = null) {
  const [draft, set] = useDraft(initial);
  const saving = useSave(onSaved);
  return { draft, set, saving: { ...saving, saved: saving.saved ?? news } };
}

/** The panel of an edit form: its heading, what the last save said, the fields and "Save changes". */
export function EditPanel({
  id,
  title,
  state,
  onSubmit,
  children,
  class: className = 'panel',
}: {
  id: string;
  title: string;
  state: { error: unknown; saved: string | null; busy: boolean };
  onSubmit: () => Promise<void> | void;
  children: ComponentChildren;
  class?: string;
}) {
  return (
    <FormPanel
      id={id}
      title={title}
      submit="Save changes"
      state={state}
      onSubmit={onSubmit}
      class={className}
    >
      {children}
    </FormPanel>
  );
}
