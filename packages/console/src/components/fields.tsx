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

/** A labelled text input; `hint` is read out with it. */
export function TextField({
  label,
  value,
  onInput,
  hint,
  type = 'text',
  required = false,
  name,
  autoComplete = 'off',
  placeholder,
}: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  hint?: string;
  type?: 'text' | 'email' | 'password' | 'url' | 'search' | 'number' | 'datetime-local';
  required?: boolean;
  name?: string;
  autoComplete?: string;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type as 'text'}
        value={value}
        required={required}
        autoComplete={autoComplete}
        placeholder={placeholder}
        aria-describedby={hintId(id, hint)}
        onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)}
      />
      <Hint of={id} text={hint} />
    </div>
  );
}

/** Several values, one per line (redirect URIs), or one long value (`rows` more: a PEM, an XML document). */
export function LinesField({
  label,
  value,
  onInput,
  hint,
  name,
  rows = 3,
  required = false,
}: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  hint?: string;
  name?: string;
  rows?: number;
  required?: boolean;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        required={required}
        spellcheck={false}
        value={value}
        aria-describedby={hintId(id, hint)}
        onInput={(e) => onInput((e.currentTarget as HTMLTextAreaElement).value)}
      />
      <Hint of={id} text={hint} />
    </div>
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
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        name={name}
        value={value}
        aria-describedby={hintId(id, hint)}
        onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value as T)}
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
      <Hint of={id} text={hint} />
    </div>
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
