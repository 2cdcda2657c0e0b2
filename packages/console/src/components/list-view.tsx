import type { ComponentChildren } from 'preact';
import type { ListPage } from '../api/lists.js';
import type { Loaded } from '../use-load.js';
import { LoadNotice } from './notices.js';
import { Pager } from './pager.js';

/**
 * One page of a list as the console shows every list: loading, the API's refusal, `empty` when the page
 * has no entry, else `children` (the table) and the pager under it.
 */
export function ListView<D extends ListPage<unknown>>({
  loaded,
  what,
  empty,
  pager,
  onGo,
  children,
}: {
  loaded: Loaded<D>;
  /** What is loading, in the words of "Loading …". */
  what: string;
  empty: ComponentChildren;
  /** The pager's accessible name. */
  pager: string;
  onGo: (path: string) => void;
  children: (entries: D['entries'], data: D) => ComponentChildren;
}) {
  if (loaded.state !== 'ok') return <LoadNotice loaded={loaded} what={what} />;
  if (loaded.data.entries.length === 0) return <>{empty}</>;
  return (
    <>
      {children(loaded.data.entries, loaded.data)}
      <Pager label={pager} links={loaded.data.links} onGo={onGo} />
    </>
  );
}
