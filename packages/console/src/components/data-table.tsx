import type { ComponentChildren } from 'preact';

/** One column of a table: its heading, what each row shows in it, and the label a phone shows beside a cell. */
export interface Column<T> {
  label: string;
  cell: (row: T) => ComponentChildren;
  /** The label of each cell on a narrow screen (default `label`); tables that do not stack have none. */
  short?: string;
}

/**
 * A table of `rows` in the console's one shape: scrollable sideways in its wrapper, a caption for screen
 * readers, one heading per column. A `stack` table (the default) becomes one card per row on a phone,
 * each cell labelled.
 */
export function DataTable<T>({
  rows,
  rowKey,
  columns,
  caption,
  captionClass = 'visually-hidden',
  class: className = 'stack',
}: {
  rows: readonly T[];
  rowKey: (row: T) => string;
  columns: readonly (Column<T> | null | false)[];
  caption?: string;
  /** A caption is for screen readers only unless given a class of its own. */
  captionClass?: string;
  /** The table's class: `stack` (the default), or another look (`''`: a plain table). */
  class?: string;
}) {
  const shown = columns.filter((c): c is Column<T> => Boolean(c));
  const stacked = className === 'stack';
  return (
    <div class="table-wrap">
      <table class={className || undefined}>
        {caption ? <caption class={captionClass}>{caption}</caption> : null}
        <thead>
          <tr>
            {shown.map((c) => (
              <th key={c.label} scope="col">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {shown.map((c) => (
                <td key={c.label} data-label={stacked ? (c.short ?? c.label) : undefined}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Short values side by side as chips (grant types, scopes). */
export function Chips({ values }: { values: readonly string[] }) {
  return (
    <div>
      {values.map((v) => (
        <span key={v} class={v.startsWith('urn:') ? 'grant urn' : 'grant'}>
          {v}
        </span>
      ))}
    </div>
  );
}
