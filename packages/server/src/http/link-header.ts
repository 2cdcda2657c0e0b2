/** How many entries a list has: exactly, or at least this many (a search that stopped counting). */
export type ListTotal = number | { atLeast: number };

export interface Paging {
  /** Absolute URL of the list without a query: `http://localhost:4000/organizations/acme/events`. */
  base: string;
  /** The active filters, in the order they go into every URL (per_page and page are added). */
  filters: ReadonlyArray<readonly [string, string]>;
  /** Parameters that go last into every URL (the loopback `host` override). */
  trailing: ReadonlyArray<readonly [string, string]>;
  page: number;
  perPage: number;
  total: ListTotal;
}

/**
 * The RFC 8288 `Link` header of a page-numbered list: `first`, `prev`, `next`, `last`, each
 * URL keeping the filters. A relation to a page without entries is left out (page 0 has no
 * `prev`, the last page no `next`; a page past the end gets only `first` and `last`), and when
 * every entry fits on one page there is no header: null. With a lower bound of the total there is
 * no `last`, and the pages up to the one holding the bound's last entry are known to exist.
 */
export function pageLinks(p: Paging): string | null {
  const exact = typeof p.total === 'number';
  const total = typeof p.total === 'number' ? p.total : p.total.atLeast;
  if (exact && total <= p.perPage) return null;
  const last = Math.ceil(total / p.perPage) - 1;
  const url = (page: number) => {
    const query = new URLSearchParams([
      ...p.filters.map(([k, v]) => [k, v]),
      ['per_page', String(p.perPage)],
      ['page', String(page)],
      ...p.trailing.map(([k, v]) => [k, v]),
    ]);
    return `<${p.base}?${query}>`;
  };
  const links = [`${url(0)}; rel="first"`];
  if (p.page >= 1 && p.page <= last) links.push(`${url(p.page - 1)}; rel="prev"`);
  if (p.page < last) links.push(`${url(p.page + 1)}; rel="next"`);
  if (exact) links.push(`${url(last)}; rel="last"`);
  return links.join(', ');
}
