import type { ComponentChildren } from 'preact';
import type { ListPage } from '../api/lists.js';
import type { Loaded } from '../use-load.js';
import { type Column, DataTable } from './data-table.js';
import { ListView } from './list-view.js';

type Columns<T> = readonly (Column<T> | null | false)[];

/**
 * One page of a list shown as a table (ListView around a DataTable): loading, the API's refusal, `empty`,
 * else the entries' table and the pager. `columns` may read the whole answer (what was loaded with the page).
 */
export function ListTable<D extends ListPage<unknown>>({
  loaded,
  what,
  pager,
  onGo,
  empty,
  caption,
  class: className,
  rowKey,
  columns,
}: {
  loaded: Loaded<D>;
  /** What is loading, in the words of "Loading …". */
  what: string;
  /** The pager's accessible name. */
  pager: string;
  onGo: (path: string) => void;
  empty: ComponentChildren;
  caption?: string;
  class?: string;
  rowKey: (row: D['entries'][number]) => string;
  columns: Columns<D['entries'][number]> | ((data: D) => Columns<D['entries'][number]>);
}) {
  return (
    <ListView loaded={loaded} what={what} pager={pager} onGo={onGo} empty={empty}>
      {(entries, data) => (
        <DataTable
          class={className}
          caption={caption}
          rows={entries}
          rowKey={rowKey}
          columns={typeof columns === 'function' ? columns(data) : columns}
        />
      )}
    </ListView>
  );
}
