import { useEffect, useMemo, useRef } from 'preact/hooks';
import { api, ok } from '../api/client.js';
import { inOrg } from '../api/params.js';
import { EmptyState, ErrorNotice, Loading } from '../components/notices.js';
import { forOwners, PageHead } from '../components/page-head.js';
import { Pager } from '../components/pager.js';
import { navigate, useLocation } from '../router.js';
import { useLoad } from '../use-load.js';
import { loadActorNames, namesIn } from './audit-actors.js';
import { AuditTable } from './audit-entry.js';
import { AuditFilters, anyFilter, type Filters, listQuery } from './audit-filters.js';

/**
 * The org's audit log (GET /organizations/{org}/events, owners only): filters and page in the
 * page's query, newest entries first, each opening onto what it recorded.
 */
export const AuditLog = forOwners('Audit log', AuditOwnersOnly, ({ org }) => {
  const { path, query } = useLocation();
  return <OwnersAuditLog slug={org.slug} name={org.name} path={path} query={query} />;
});

function AuditOwnersOnly() {
  return <p class="notice info">Only owners of this organization can read its audit log.</p>;
}

function OwnersAuditLog({
  slug,
  name,
  path,
  query,
}: {
  slug: string;
  name: string;
  path: string;
  query: URLSearchParams;
}) {
  const apiQuery = listQuery(query);
  const loaded = useLoad(
    () =>
      // The page's query as written (repeated parameters included, for the API to refuse them).
      ok(
        api.GET('/organizations/{org}/events', {
          ...inOrg(slug),
          querySerializer: () => apiQuery,
        }),
      ).then((answer) => ({ answer, query: apiQuery })),
    [slug, apiQuery],
  );
  // Members and clients by name, loaded once for the org; until then (or without them) actors show as ids.
  const known = useLoad(() => loadActorNames(slug), [slug]);
  // While the next page loads, the last one stays (marked busy) instead of the page jumping.
  const answer = loaded.state === 'ok' ? loaded.data.answer : null;
  const names = useMemo(
    () => namesIn(answer?.data ?? [], known.state === 'ok' ? known.data : new Map()),
    [answer, known],
  );
  // The first page waits for the names too: no actor turns from an id into a name under the reader.
  const busy =
    known.state === 'loading' ||
    loaded.state === 'loading' ||
    (loaded.state === 'ok' && loaded.data.query !== apiQuery);

  const heading = useRef<HTMLHeadingElement>(null);
  const focusList = useRef(false);
  useEffect(() => {
    if (!busy && focusList.current) {
      focusList.current = false;
      heading.current?.focus({ preventScroll: true });
    }
  }, [busy]);

  const go = (params: URLSearchParams) => {
    const q = listQuery(params);
    navigate(`${path}${q ? `?${q}` : ''}`);
  };
  const apply = (filters: Filters, perPage: string) => {
    const params = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== ''));
    if (perPage !== '50') params.set('per_page', perPage);
    go(params);
  };
  const actorHref = (actorId: string) => {
    const params = new URLSearchParams({ actor_id: actorId });
    const perPage = query.get('per_page');
    if (perPage) params.set('per_page', perPage);
    return `${path}?${params}`;
  };
  const filtered = anyFilter(query);
  const page = Number(query.get('page') ?? '0');

  return (
    <>
      <PageHead title="Audit log" action={null} />
      <p class="muted">
        Every change in {name} and every sign-in to it, newest first. Entries are kept as they were recorded.
      </p>
      <section class="panel" aria-labelledby="audit-filters-title">
        <h2 id="audit-filters-title" class="audit-filters-title">
          Filters
        </h2>
        <AuditFilters query={query} onApply={apply} />
      </section>
      <h2 id="audit-entries-title" class="audit-entries-title" ref={heading} tabIndex={-1}>
        Entries
      </h2>
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {busy ? <Loading what="entries" /> : null}
      {answer && loaded.state === 'ok' && known.state !== 'loading' ? (
        <div aria-busy={busy}>
          {answer.data.length > 0 ? (
            <AuditTable entries={answer.data} names={names} actorHref={actorHref} />
          ) : (
            <NoEntries filtered={filtered} page={page} onFirst={() => go(withPage(query, null))} />
          )}
          <Pager
            links={answer.links}
            label="Audit log pages"
            onGo={(to) => {
              focusList.current = true;
              go(new URL(to, location.origin).searchParams);
            }}
          />
        </div>
      ) : null}
    </>
  );
}

function withPage(query: URLSearchParams, page: string | null): URLSearchParams {
  const params = new URLSearchParams(query);
  if (page === null) params.delete('page');
  else params.set('page', page);
  return params;
}

function NoEntries({ filtered, page, onFirst }: { filtered: boolean; page: number; onFirst: () => void }) {
  if (page > 0) {
    return (
      <EmptyState title="No entries on this page">
        <p>The list ends before this page.</p>
        <button type="button" class="secondary" onClick={onFirst}>
          Go to the first page
        </button>
      </EmptyState>
    );
  }
  if (filtered) {
    return (
      <EmptyState title="No entries match these filters">
        <p>Widen the time range or change the filters above; “Clear filters” shows every entry.</p>
      </EmptyState>
    );
  }
  return (
    <EmptyState title="Nothing has happened in this organization yet">
      <p>
        Creating clients and users, changing members, keys and webhooks, and every sign-in are recorded here.
      </p>
    </EmptyState>
  );
}
