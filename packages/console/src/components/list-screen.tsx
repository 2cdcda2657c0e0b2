import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { OneTimeNews } from '../news.js';
import { Done } from './notices.js';
import { type HeadAction, PageHead } from './page-head.js';

/**
 * A list screen as the console draws each: its heading and action, what the list is for, the news of the
 * last change (a thing just deleted, taken once when the screen opens), then `children` (a form opened in
 * place, the list itself).
 */
export function ListScreen({
  title,
  action,
  intro,
  news,
  children,
}: {
  title: string;
  action: HeadAction;
  intro: ComponentChildren;
  news?: OneTimeNews;
  children: ComponentChildren;
}) {
  const [line] = useState(() => news?.take() ?? null);
  return (
    <>
      <PageHead title={title} action={action} />
      <p class="muted">{intro}</p>
      {line ? <Done>{line}</Done> : null}
      {children}
    </>
  );
}
