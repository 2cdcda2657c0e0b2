import { useEffect, useId, useState } from 'preact/hooks';
import { SelectField, TextField } from '../components/fields.js';

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
  const set = (name: FilterName) => (value: string) => setForm((f) => ({ ...f, [name]: value }));
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
        <EntityField value={form.entity} onInput={set('entity')} />
        <SelectField label="Verb" name="verb" value={form.verb} options={VERBS} onChange={set('verb')} />
        <TextField
          label="Actor id"
          name="actor_id"
          value={form.actor_id}
          onInput={set('actor_id')}
          hint="A user (usr_…) or client (cli_…) id."
        />
        <TextField
          label="Key prefix"
          name="key_prefix"
          value={form.key_prefix}
          onInput={set('key_prefix')}
          hint="The start of a key, like client. or user.up"
        />
        <DateTimeField label="From" name="from" value={form.from} onInput={set('from')} hint="Inclusive." />
        <DateTimeField
          label="To"
          name="to"
          value={form.to}
          onInput={set('to')}
          hint="Up to, not including."
        />
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

function EntityField({ value, onInput }: { value: string; onInput: (value: string) => void }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>Entity</label>
      <input
        id={id}
        name="entity"
        type="text"
        list={`${id}-entities`}
        autoComplete="off"
        value={value}
        aria-describedby={`${id}-hint`}
        onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)}
      />
      <datalist id={`${id}-entities`}>
        {ENTITIES.map((entity) => (
          <option key={entity} value={entity} />
        ))}
      </datalist>
      <p id={`${id}-hint`} class="hint">
        Such as user, client or membership.
      </p>
    </div>
  );
}

function DateTimeField({
  label,
  name,
  value,
  onInput,
  hint,
}: {
  label: string;
  name: string;
  value: string;
  onInput: (value: string) => void;
  hint: string;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="datetime-local"
        value={value}
        aria-describedby={`${id}-hint`}
        onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)}
      />
      <p id={`${id}-hint`} class="hint">
        {hint} Your time zone.
      </p>
    </div>
  );
}
