const LABELS: [rel: string, label: string][] = [
  ['first', 'First'],
  ['prev', 'Previous'],
  ['next', 'Next'],
  ['last', 'Last'],
];

const pageOf = (path: string | undefined) =>
  path === undefined ? null : Number(new URL(path, location.origin).searchParams.get('page') ?? '0');

/**
 * Paging that follows the list's `Link` header: a relation the API left out (nowhere to go) is a
 * disabled button. `onGo` gets the relation's path, filters included.
 */
export function Pager({
  links,
  onGo,
  label,
}: {
  links: Record<string, string>;
  onGo: (path: string) => void;
  label: string;
}) {
  if (Object.keys(links).length === 0) return null;
  const last = pageOf(links.last);
  const next = pageOf(links.next);
  const prev = pageOf(links.prev);
  const current = next !== null ? next - 1 : prev !== null ? prev + 1 : 0;
  const pages = (last ?? current) + 1;
  return (
    <nav class="pager" aria-label={label}>
      {LABELS.map(([rel, text]) => {
        const to = links[rel];
        return (
          <button
            key={rel}
            type="button"
            class="secondary"
            disabled={to === undefined}
            onClick={() => to && onGo(to)}
          >
            {text}
          </button>
        );
      })}
      <span class="muted" aria-live="polite">
        Page {current + 1} of {Math.max(pages, current + 1)}
      </span>
    </nav>
  );
}
