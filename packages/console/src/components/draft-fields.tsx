import { CheckboxField, LinesField, SelectField, TextField, type TextType } from './fields.js';

/** The keys of a draft whose values are text, or yes/no. */
type KeyOf<D, V> = { [K in keyof D]: D[K] extends V ? K : never }[keyof D] & string;

interface Shown {
  /** The input's name, as the API calls the value (default: the key). */
  name?: string;
  label: string;
  hint?: string;
}

/**
 * One field of a form whose values are a draft object: which value it edits, and how: a text input
 * (`type`, default text), several lines (`lines`), a choice among `options`, or a checkbox.
 */
export type FieldDecl<D> =
  | (Shown & {
      kind?: 'text';
      key: KeyOf<D, string>;
      type?: TextType;
      required?: boolean;
      autoComplete?: string;
      placeholder?: string;
      suggestions?: readonly string[];
    })
  | (Shown & { kind: 'lines'; key: KeyOf<D, string>; rows?: number; required?: boolean })
  | (Shown & { kind: 'select'; key: KeyOf<D, string>; options: readonly (readonly [string, string])[] })
  | (Shown & { kind: 'checkbox'; key: KeyOf<D, boolean> });

/**
 * The fields `fields` declares, in order, each showing its value of `draft` and changing it through
 * `set`; a `false` entry is a field not shown (one that depends on another value).
 */
export function DraftFields<D>({
  draft,
  set,
  fields,
}: {
  draft: D;
  set: (change: Partial<D>) => void;
  fields: readonly (FieldDecl<D> | false)[];
}) {
  return (
    <>
      {fields.map((f) => (f ? <DraftField key={f.name ?? f.key} draft={draft} set={set} field={f} /> : null))}
    </>
  );
}

function DraftField<D>({
  draft,
  set,
  field,
}: {
  draft: D;
  set: (change: Partial<D>) => void;
  field: FieldDecl<D>;
}) {
  const change = (value: string | boolean) => set({ [field.key]: value } as Partial<D>);
  const { name = field.key, label, hint } = field;
  if (field.kind === 'checkbox') {
    const checked = draft[field.key] as boolean;
    return <CheckboxField name={name} label={label} hint={hint} checked={checked} onChange={change} />;
  }
  const value = draft[field.key] as string;
  if (field.kind === 'select') {
    return (
      <SelectField
        name={name}
        label={label}
        hint={hint}
        value={value}
        options={field.options}
        onChange={change}
      />
    );
  }
  if (field.kind === 'lines') {
    const { rows, required } = field;
    return <LinesField {...{ name, label, hint, value, rows, required }} onInput={change} />;
  }
  const { type, required, autoComplete, placeholder } = field;
  return (
    <TextField
      {...{ name, label, hint, value, type, required, autoComplete, placeholder }}
      onInput={change}
    />
  );
}
