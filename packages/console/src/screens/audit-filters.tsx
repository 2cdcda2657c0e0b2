import { useEffect, useState } from 'preact/hooks';
import { DraftFields, type FieldDecl } from '../components/draft-fields.js';
import { SelectField } from '../components/fields.js';

/**
 * The audit log's filters live in the page's query, under the API's own names, so a reload or a
 * shared link shows the same entries; the API call sends the non-empty ones.
 */
export const FILTERS = ['entity', 'verb', 'actor_id', 'key_prefix', 'from', 'to'] as const;
export type FilterName = (typeof FILTERS)[number];
export type Filters = Record<FilterName, string>;

/** What the page's query holds of the list: filters, page size, page. */
const LIST_PARAMETERS: readonly string[] = [...FILTERS, 'per_page', 'page'];

/** Entity types the server records (a suggestion list: the filter takes any entity). */
const ENTITIES = [
  'client',
  'connection',
  'consent',
  'impersonation',
  'invitation',
  'mail_link',
  'membership',
  'organization',
  'passkey',
  'password',
  'resource',
  'role',
  'second_factor',
  'service_account',
  'session',
  'signing_key',
  'tenant',
  'user',
  'webhook',
];

const VERBS = [
  ['', 'Any verb'],
  ['created', 'created'],
  ['updated', 'updated'],
  ['deleted', 'deleted'],
  ['login', 'login'],
] as const;

/** The filters' fields, in the grid's order (the page size comes after them). */
const FIELDS: readonly FieldDecl<Filters>[] = [
  { key: 'entity', label: 'Entity', suggestions: ENTITIES, hint: 'Such as user, client or membership.' },
  { kind: 'select', key: 'verb', label: 'Verb', options: VERBS },
  { key: 'actor_id', label: 'Actor id', hint: 'A user (usr_…) or client (cli_…) id.' },
  { key: 'key_prefix', label: 'Key prefix', hint: 'The start of a key, like client. or user.up' },
  { key: 'from', label: 'From', type: 'datetime-local', hint: 'Inclusive. Your time zone.' },
  { key: 'to', label: 'To', type: 'datetime-local', hint: 'Up to, not including. Your time zone.' },
];

export const filtersOf = (query: URLSearchParams): Filters =>
  Object.fromEntries(FILTERS.map((name) => [name, query.get(name) ?? ''])) as Filters;

export const anyFilter = (query: URLSearchParams) => FILTERS.some((name) => query.get(name));

/**
 * The list's parameters of `query` (as written, repeated ones included, so the API can refuse
 * them), without empty values: the API query, and the page query after a Link is followed.
 */
export function listQuery(query: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const name of LIST_PARAMETERS) {
    for (const value of query.getAll(name)) if (value !== '') kept.append(name, value);
  }
  if (kept.get('page') === '0' && kept.getAll('page').length === 1) kept.delete('page');
  return kept.toString();
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as a `datetime-local` value in the browser's zone; '' when it is not one. */
export function isoToLocal(iso: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (the browser's zone) as an ISO instant in UTC; '' when empty. */
export function localToIso(local: string): string {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

/** The filter form: applying it or clearing it changes the page's query (page back to the first). */
export function AuditFilters({
  query,
  onApply,
}: {
  query: URLSearchParams;
  onApply: (filters: Filters, perPage: string) => void;
}) {
  const search = query.toString();
  const fromQuery = () => {
    const f = filtersOf(query);
    return { ...f, from: isoToLocal(f.from), to: isoToLocal(f.to) };
  };
  const [form, setForm] = useState<Filters>(fromQuery);
  const [perPage, setPerPage] = useState(query.get('per_page') ?? '50');
  // Back/forward and links change the query: the form follows.
  useEffect(() => {
    setForm(fromQuery());
    setPerPage(query.get('per_page') ?? '50');
  }, [search]);
  const sizes = ['50', '100'].includes(perPage) ? ['50', '100'] : [perPage, '50', '100'];
  return (
    <form
      class="audit-filters"
      aria-label="Filter the audit log"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(
          {
            ...form,
            entity: form.entity.trim(),
            actor_id: form.actor_id.trim(),
            key_prefix: form.key_prefix.trim(),
            from: localToIso(form.from),
            to: localToIso(form.to),
          },
          perPage,
        );
      }}
    >
      <div class="audit-filter-grid">
        <DraftFields draft={form} set={(change) => setForm((f) => ({ ...f, ...change }))} fields={FIELDS} />
        <SelectField
          label="Per page"
          name="per_page"
          value={perPage}
          options={sizes.map((s) => [s, s] as const)}
          onChange={setPerPage}
        />
      </div>
      <div class="actions">
        <button type="submit">Apply filters</button>
        <button
          type="button"
          class="secondary"
          onClick={() =>
            onApply({ entity: '', verb: '', actor_id: '', key_prefix: '', from: '', to: '' }, perPage)
          }
        >
          Clear filters
        </button>
      </div>
    </form>
  );
}
