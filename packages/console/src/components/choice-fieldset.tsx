import type { ComponentChildren } from 'preact';
import { CheckboxField } from './fields.js';

/** One box of a ChoiceFieldset: the id it stands for, its label and hint. */
export interface Choice {
  id: string;
  label: string;
  hint?: string;
}

/**
 * A set of ids picked with a checkbox each (default roles, allowed clients, a group's roles): `none` in
 * place of the boxes when there is nothing to pick; a box ticked adds its id to `chosen`, unticked takes
 * it out.
 */
export function ChoiceFieldset({
  legend,
  hint,
  name,
  choices,
  chosen,
  onChange,
  none,
}: {
  legend: string;
  hint?: string;
  name: string;
  choices: readonly Choice[];
  chosen: readonly string[];
  onChange: (chosen: string[]) => void;
  none: ComponentChildren;
}) {
  return (
    <fieldset class="role-picker">
      <legend>{legend}</legend>
      {hint ? <p class="hint">{hint}</p> : null}
      {choices.length === 0 ? (
        <p class="muted">{none}</p>
      ) : (
        choices.map((c) => (
          <CheckboxField
            key={c.id}
            label={c.label}
            name={name}
            checked={chosen.includes(c.id)}
            hint={c.hint}
            onChange={(on) => onChange(on ? [...chosen, c.id] : chosen.filter((id) => id !== c.id))}
          />
        ))
      )}
    </fieldset>
  );
}
