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
  captionClass,
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
    <TableFrame
      class={className}
      caption={caption}
      captionClass={captionClass}
      headings={shown.map((c) => c.label)}
    >
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
    </TableFrame>
  );
}

/**
 * The frame of every table of the console: scrollable sideways in its wrapper, its caption (for screen
 * readers only unless given a class of its own), one heading per column, then `children`, its bodies.
 */
export function TableFrame({
  class: className,
  caption,
  captionClass = 'visually-hidden',
  headings,
  children,
}: {
  class: string;
  caption?: ComponentChildren;
  captionClass?: string;
  headings: readonly string[];
  children: ComponentChildren;
}) {
  return (
    <div class="table-wrap">
      <table class={className || undefined}>
        {caption ? <caption class={captionClass}>{caption}</caption> : null}
        <thead>
          <tr>
            {headings.map((heading) => (
              <th key={heading} scope="col">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        {children}
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
