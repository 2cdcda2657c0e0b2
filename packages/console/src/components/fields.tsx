import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

/** The id of a field's hint, for `aria-describedby`, when it has one. */
const hintId = (id: string, hint: string | undefined) => (hint ? `${id}-hint` : undefined);

/** A field's hint, read out with the field (hintId). */
function Hint({ of, text }: { of: string; text: string | undefined }) {
  return text ? (
    <p id={hintId(of, text)} class="hint">
      {text}
    </p>
  ) : null;
}

/** A labelled field: `input` draws the control with the id its label names and its hint's id. */
function Field({
  label,
  hint,
  input,
}: {
  label: string;
  hint: string | undefined;
  input: (id: string, describedBy: string | undefined) => ComponentChildren;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {input(id, hintId(id, hint))}
      <Hint of={id} text={hint} />
    </div>
  );
}

/** What every text field takes: its label, value and hint, and the name the form sends it by. */
interface TextProps {
  label: string;
  value: string;
  onInput: (value: string) => void;
  hint?: string;
  name?: string;
  required?: boolean;
}

export type TextType = 'text' | 'email' | 'password' | 'url' | 'search' | 'number' | 'datetime-local';

const typed = (e: Event) => (e.currentTarget as HTMLInputElement | HTMLTextAreaElement).value;

/** What a text input and a textarea both take from their field: id, name, value, hint, and the typing. */
const textAttributes = (field: TextProps, id: string, describedBy: string | undefined) => ({
  id,
  name: field.name,
  value: field.value,
  required: field.required ?? false,
  'aria-describedby': describedBy,
  onInput: (e: Event) => field.onInput(typed(e)),
});

/** A labelled text input; `hint` is read out with it; `suggestions` are offered as it is typed. */
export function TextField({
  type = 'text',
  autoComplete = 'off',
  placeholder,
  suggestions,
  ...field
}: TextProps & {
  type?: TextType;
  autoComplete?: string;
  placeholder?: string;
  suggestions?: readonly string[];
}) {
  return (
    <Field
      label={field.label}
      hint={field.hint}
      input={(id, describedBy) => (
        <>
          <input
            {...textAttributes(field, id, describedBy)}
            type={type as 'text'}
            list={suggestions ? `${id}-suggestions` : undefined}
            autoComplete={autoComplete}
            placeholder={placeholder}
          />
          {suggestions ? (
            <datalist id={`${id}-suggestions`}>
              {suggestions.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          ) : null}
        </>
      )}
    />
  );
}

/** Several values, one per line (redirect URIs), or one long value (`rows` more: a PEM, an XML document). */
export function LinesField({ rows = 3, ...field }: TextProps & { rows?: number }) {
  return (
    <Field
      label={field.label}
      hint={field.hint}
      input={(id, describedBy) => (
        <textarea {...textAttributes(field, id, describedBy)} rows={rows} spellcheck={false} />
      )}
    />
  );
}

/** Lines of a textarea as a list, blank lines dropped. */
export const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

export function CheckboxField({
  label,
  checked,
  onChange,
  hint,
  name,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string;
  name?: string;
}) {
  const id = useId();
  return (
    <div class="field checkbox">
      <input
        id={id}
        name={name}
        type="checkbox"
        checked={checked}
        aria-describedby={hintId(id, hint)}
        onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked)}
      />
      <label for={id}>{label}</label>
      <Hint of={id} text={hint} />
    </div>
  );
}

export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  name,
  hint,
}: {
  label: string;
  value: T;
  options: readonly (readonly [value: T, label: string])[];
  onChange: (value: T) => void;
  name?: string;
  hint?: string;
}) {
  return (
    <Field
      label={label}
      hint={hint}
      input={(id, describedBy) => (
        <select
          id={id}
          name={name}
          value={value}
          aria-describedby={describedBy}
          onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value as T)}
        >
          {options.map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/** A form whose submit runs `onSubmit` once at a time. */
export function Form({
  onSubmit,
  children,
  label,
}: {
  onSubmit: () => void;
  children: ComponentChildren;
  label: string;
}) {
  return (
    <form
      class="form"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
