import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { ResourceScope } from '../api/types.js';

/** A scope being edited; `key` keeps each row's inputs in place when another row is removed. */
interface ScopeRow extends ResourceScope {
  key: number;
}

let nextKey = 0;
const row = (scope: ResourceScope): ScopeRow => ({ ...scope, key: nextKey++ });

/** The scopes being edited, and what to send for them. */
export interface ScopesState {
  rows: ScopeRow[];
  setRows: (rows: ScopeRow[]) => void;
  /** The rows with anything typed in them, trimmed: a row left blank is not sent. */
  value: () => ResourceScope[];
}

export function useScopes(initial: ResourceScope[]): ScopesState {
  const [rows, setRows] = useState(() => initial.map(row));
  return {
    rows,
    setRows,
    value: () =>
      rows
        .map((r) => ({ name: r.name.trim(), description: r.description.trim() }))
        .filter((s) => s.name !== '' || s.description !== ''),
  };
}

export const SCOPE_RULES =
  'A name is 1 to 64 of a–z, 0–9 and : . _ - (like files:read), unique in this resource, and never an identity scope (openid, profile, email, address, phone, offline_access) nor a console scope (org:read…). The description, 1 to 200 characters, is what people read on the consent page.';

/**
 * The scopes editor: one group a scope, its name and its description, each removable, and a
 * button that adds an empty one and moves the focus to its name. The API checks the rules.
 */
export function ScopesEditor({ state }: { state: ScopesState }) {
  const id = useId();
  const { rows, setRows } = state;
  const list = useRef<HTMLDivElement>(null);
  /** The row whose name takes the focus once it is on screen (just added). */
  const [focusKey, setFocusKey] = useState<number | null>(null);
  useEffect(() => {
    if (focusKey === null) return;
    list.current?.querySelector<HTMLInputElement>(`[data-scope="${focusKey}"]`)?.focus();
    setFocusKey(null);
  }, [focusKey]);
  const change = (key: number, part: Partial<ResourceScope>) =>
    setRows(rows.map((r) => (r.key === key ? { ...r, ...part } : r)));
  return (
    <fieldset class="scopes" aria-describedby={`${id}-rules`}>
      <legend>Scopes</legend>
      <p id={`${id}-rules`} class="hint scopes-hint">
        {SCOPE_RULES}
      </p>
      <div ref={list}>
        {rows.length === 0 ? <p class="muted">No scopes yet.</p> : null}
        {rows.map((r, i) => (
          <fieldset key={r.key} class="scope-row">
            <legend>Scope {i + 1}</legend>
            <div class="field">
              <label for={`${id}-name-${r.key}`}>Scope name</label>
              <input
                id={`${id}-name-${r.key}`}
                data-scope={r.key}
                name="scope_name"
                type="text"
                class="mono"
                value={r.name}
                autoComplete="off"
                spellcheck={false}
                placeholder="files:read"
                onInput={(e) => change(r.key, { name: (e.currentTarget as HTMLInputElement).value })}
              />
            </div>
            <div class="field">
              <label for={`${id}-description-${r.key}`}>Description</label>
              <input
                id={`${id}-description-${r.key}`}
                name="scope_description"
                type="text"
                value={r.description}
                autoComplete="off"
                placeholder="Read your files"
                onInput={(e) => change(r.key, { description: (e.currentTarget as HTMLInputElement).value })}
              />
            </div>
            <button
              type="button"
              class="secondary scope-remove"
              onClick={() => setRows(rows.filter((other) => other.key !== r.key))}
            >
              Remove<span class="visually-hidden"> scope {i + 1}</span>
            </button>
          </fieldset>
        ))}
      </div>
      <button
        type="button"
        class="secondary"
        onClick={() => {
          const added = row({ name: '', description: '' });
          setRows([...rows, added]);
          setFocusKey(added.key);
        }}
      >
        Add scope
      </button>
    </fieldset>
  );
}

/** Scope names as code chips (read-only). */
export function ScopeChips({ scopes }: { scopes: ResourceScope[] }) {
  if (scopes.length === 0) return <span class="muted">None</span>;
  return (
    <ul class="chips">
      {scopes.map((s) => (
        <li key={s.name} class="chip">
          <code>{s.name}</code>
        </li>
      ))}
    </ul>
  );
}
