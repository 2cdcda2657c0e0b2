import assert from 'node:assert/strict';
import type { TestServer } from '../../support/server.js';
import { call } from './console.js';

/** The `Link` header's relations: rel → the URL. */
export function linkRelations(link: string | null): Record<string, string> {
  if (link === null) return {};
  return Object.fromEntries(
    link.split(', ').map((part) => {
      const match = /^<([^>]+)>; rel="(first|prev|next|last)"$/.exec(part);
      assert.ok(match, part);
      return [match[2], match[1]];
    }),
  );
}

/**
 * The shared pager's contract, as a client of a list walking it sees it (`path`: a management list
 * of at least three entries, without a query): `per_page=100` holds them all, without `Link`; one per
 * page, walked through `next` from the first page, gives the same entries in the same order, each
 * page's `prev` is the page before it, the first has no `prev` and the last no `next`, and `first`
 * and `last` name pages 0 and the last; `per_page=50` needs no `Link`; a page past the end is empty
 * with `first` and `last` only; a `per_page` other than 1, 50 or 100, or a page out of bounds, is 400
 * with its words. Returns the entries' ids (`idOf`).
 */
export async function checkPaging(
  server: TestServer,
  path: string,
  token: string,
  idOf: (entry: Record<string, unknown>) => string,
): Promise<string[]> {
  const all = await call(server, 'GET', `${path}?per_page=100`, token);
  assert.equal(all.status, 200, all.text);
  assert.equal(all.headers.get('link'), null);
  assert.equal(all.headers.get('cache-control'), 'no-store');
  const ids = (all.body as Record<string, unknown>[]).map(idOf);
  assert.ok(ids.length >= 3, `${path} has ${ids.length} entries: too few to page`);
  assert.equal((await call(server, 'GET', `${path}?per_page=50`, token)).headers.get('link'), null);
  const base = `${server.base}${path}`;
  const at = (page: number) => `${base}?per_page=1&page=${page}`;
  const walked: string[] = [];
  let url: string | undefined = at(0);
  let page = 0;
  while (url !== undefined) {
    assert.equal(url, at(page));
    const res = await call(server, 'GET', url.slice(server.base.length), token);
    assert.equal(res.status, 200, res.text);
    const entries = res.body as Record<string, unknown>[];
    assert.equal(entries.length, 1);
    walked.push(idOf(entries[0] as Record<string, unknown>));
    const rel = linkRelations(res.headers.get('link'));
    assert.deepEqual([rel.first, rel.last], [at(0), at(ids.length - 1)]);
    assert.equal(rel.prev, page === 0 ? undefined : at(page - 1));
    url = rel.next;
    page += 1;
    assert.ok(page <= ids.length, 'next never ends');
  }
  assert.deepEqual(walked, ids);
  const past = await call(server, 'GET', `${path}?per_page=1&page=${ids.length}`, token);
  assert.deepEqual([past.status, past.body], [200, []]);
  assert.deepEqual(linkRelations(past.headers.get('link')), { first: at(0), last: at(ids.length - 1) });
  for (const [query, detail] of [
    ['per_page=0', 'per_page: must be 1, 50 or 100'],
    ['per_page=101', 'per_page: must be 1, 50 or 100'],
    ['per_page=10', 'per_page: must be 1, 50 or 100'],
    ['page=-1', 'page: must be a whole number from 0 to 9999999'],
    ['page=10000000', 'page: must be a whole number from 0 to 9999999'],
  ]) {
    const bad = await call(server, 'GET', `${path}?${query}`, token);
    assert.equal(bad.status, 400, `${query}: ${bad.text}`);
    assert.deepEqual(bad.body, { error: 'invalid_query', error_detail: detail }, query);
  }
  return ids;
}
