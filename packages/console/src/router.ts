import { useEffect, useState } from 'preact/hooks';

/**
 * The console's pages are paths under /console/ (history API): a link or a reload lands on the
 * same page, and the server answers every such path with the app.
 */
export const BASE = '/console/';

const listeners = new Set<() => void>();

export function navigate(to: string, options: { replace?: boolean } = {}) {
  const url = to.startsWith('/') ? to : `${BASE}${to}`;
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

/** The current location (path and query), re-rendering on every navigation. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((n) => n + 1);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** `pattern` like `/console/o/:org/users/:id` against `path`: its parameters, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const source = pattern.replace(/:[a-z]+/g, (name) => {
    names.push(name.slice(1));
    return '([^/]+)';
  });
  const found = new RegExp(`^${source}/?$`).exec(path);
  if (!found) return null;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1] ?? '')]));
}

/** Where an org's page lives: `/console/o/{slug}/{rest}`. */
export const orgHref = (slug: string, ...rest: string[]) =>
  `${BASE}o/${encodeURIComponent(slug)}${rest.map((p) => `/${encodeURIComponent(p)}`).join('')}`;
