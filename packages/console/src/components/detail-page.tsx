import type { ComponentChildren } from 'preact';
import type { Loaded } from '../use-load.js';
import { LoadNotice } from './notices.js';
import { DetailHead } from './page-head.js';

/**
 * The page of one thing as the console draws each: the way back to its list (`back`, at `href`), its
 * name as the heading (`fallback` until it is loaded), `notes` (what just happened to it), what the
 * loading is doing, then `children` of what was loaded.
 */
export function DetailPage<T>({
  loaded,
  href,
  back,
  name,
  fallback,
  what,
  notes,
  children,
}: {
  loaded: Loaded<T>;
  href: string;
  back: string;
  name: (data: T) => string;
  fallback: string;
  /** What is loading, in the words of "Loading …". */
  what: string;
  notes?: ComponentChildren;
  children: (data: T) => ComponentChildren;
}) {
  const data = loaded.state === 'ok' ? loaded.data : null;
  return (
    <>
      <DetailHead href={href} back={back} title={data === null ? fallback : name(data)} />
      {notes}
      <LoadNotice loaded={loaded} what={what} />
      {data === null ? null : children(data)}
    </>
  );
}
