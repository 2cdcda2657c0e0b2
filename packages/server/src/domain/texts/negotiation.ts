import { type Locale, SOURCE_LOCALE, supportedLocale } from '../locales.js';

/** Longer lists than these are not a person's preferences: the rest is not read. */
const MAX_LIST_CHARS = 512;
const MAX_LIST_ENTRIES = 16;

/**
 * OIDC Core §3.1.2.1 `ui_locales`: space-separated tags, preferred first. Only the supported
 * ones are kept, each once; garbage or an over-long value is no preference at all (it is a hint,
 * never an error). The result is what a pending request stores.
 */
export function parseUiLocales(value: string | undefined | null): Locale[] {
  if (value === undefined || value === null || value.length > MAX_LIST_CHARS) return [];
  const found: Locale[] = [];
  for (const tag of value.split(' ').slice(0, MAX_LIST_ENTRIES)) {
    const locale = supportedLocale(tag);
    if (locale !== null && !found.includes(locale)) found.push(locale);
  }
  return found;
}

/**
 * RFC 9110 §12.5.4 `Accept-Language`: the supported locales the browser names, by weight (q=0
 * excluded; ties keep the header's order). `*` names nothing in particular.
 */
export function parseAcceptLanguage(header: string | undefined): Locale[] {
  if (header === undefined || header.length > MAX_LIST_CHARS) return [];
  const ranked = header
    .split(',')
    .slice(0, MAX_LIST_ENTRIES)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { locale: supportedLocale(tag.trim()), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((e) => e.locale !== null && e.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return [...new Set(ranked.map((e) => e.locale as Locale))];
}

/** Where a page's language may come from, most binding first (DESIGN §21). */
export interface LocaleSources {
  /** What the person picked with the pages' language switcher (its cookie), if anything. */
  chosen?: Locale | null;
  /** The pending request's `ui_locales`, preferred first. */
  uiLocales?: readonly Locale[];
  /** The signed-in user's saved `locale` claim. */
  saved?: string | null;
  /** The browser's `Accept-Language`. */
  acceptLanguage?: string | undefined;
  /** The org's `default_locale`. */
  orgDefault?: Locale | null;
}

/**
 * The language a page or mail is in: the switcher's choice, then `ui_locales`, then the user's
 * saved locale, then `Accept-Language`, then the org's default, then English.
 */
export function chooseLocale(s: LocaleSources): Locale {
  return (
    s.chosen ??
    s.uiLocales?.[0] ??
    (s.saved ? supportedLocale(s.saved) : null) ??
    parseAcceptLanguage(s.acceptLanguage)[0] ??
    s.orgDefault ??
    SOURCE_LOCALE
  );
}
