import { TableFrame } from './data-table.js';

/**
 * Snapshots of the audit log (camelCase objects) as tables people read: one field a row, and for
 * an update each changed field's value before and after, under visible "Before"/"After" headers
 * (the colours only repeat what the headers say).
 */

type Snapshot = Record<string, unknown>;

/** One value as text: strings as they are, nested objects and arrays as compact JSON. */
export function Value({ value }: { value: unknown }) {
  if (value === undefined) return <span class="muted">(absent)</span>;
  if (value === null) return <span class="muted">(none)</span>;
  if (value === '') return <span class="muted">(empty)</span>;
  if (typeof value === 'string') return <span class="value">{value}</span>;
  if (typeof value === 'number' || typeof value === 'boolean') return <code>{String(value)}</code>;
  return <code>{JSON.stringify(value)}</code>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields an update changed: those `changes` names, else those whose value differs. */
export function changedFields(previous: Snapshot, data: Snapshot, changes?: Snapshot): string[] {
  if (changes) return Object.keys(changes);
  return [...new Set([...Object.keys(previous), ...Object.keys(data)])].filter(
    (k) => !same(previous[k], data[k]),
  );
}

/** A snapshot as field/value rows. */
export function FieldTable({ data, caption }: { data: Snapshot; caption: string }) {
  const fields = Object.keys(data);
  return (
    <TableFrame
      class="diff fields"
      caption={caption}
      captionClass="diff-caption"
      headings={['Field', 'Value']}
    >
      <tbody>
        {fields.length === 0 ? (
          <tr>
            <td colSpan={2} class="muted">
              No fields recorded.
            </td>
          </tr>
        ) : (
          fields.map((field) => (
            <tr key={field}>
              <th scope="row" class="diff-field">
                <code class="diff-name">{field}</code>
              </th>
              <td class="diff-value">
                <Value value={data[field]} />
              </td>
            </tr>
          ))
        )}
      </tbody>
    </TableFrame>
  );
}

/**
 * An update: a Field / Before / After row for each changed field, and the unchanged fields
 * folded away below. Without `previous` (not recorded), Before says so.
 */
export function DiffTable({
  previous,
  data,
  changes,
}: {
  previous: Snapshot | undefined;
  data: Snapshot;
  changes?: Snapshot;
}) {
  const fields = changedFields(previous ?? {}, data, changes);
  const after = (field: string) => (field in data ? data[field] : changes?.[field]);
  const unchanged = Object.fromEntries(Object.entries(data).filter(([field]) => !fields.includes(field)));
  return (
    <>
      <TableFrame
        class="diff"
        caption={fields.length === 1 ? '1 field changed' : `${fields.length} fields changed`}
        captionClass="diff-caption"
        headings={['Field', 'Before', 'After']}
      >
        <tbody>
          {fields.map((field) => (
            <tr key={field}>
              <th scope="row" class="diff-field">
                <code class="diff-name">{field}</code>
              </th>
              <td class="before diff-value">
                {previous ? <Value value={previous[field]} /> : <span class="muted">(not recorded)</span>}
              </td>
              <td class="after diff-value">
                <Value value={after(field)} />
              </td>
            </tr>
          ))}
        </tbody>
      </TableFrame>
      {Object.keys(unchanged).length > 0 ? (
        <details class="unchanged">
          <summary class="unchanged-summary">
            {Object.keys(unchanged).length === 1
              ? '1 unchanged field'
              : `${Object.keys(unchanged).length} unchanged fields`}
          </summary>
          <FieldTable data={unchanged} caption="Unchanged fields" />
        </details>
      ) : null}
    </>
  );
}
