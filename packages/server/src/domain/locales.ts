/**
 * The languages the hosted pages and the mails speak (DESIGN §21), as BCP 47 tags, and how any
 * tag a browser, a client or a person names comes down to one of them.
 */
import type { Locale } from './types.js';

export type { Locale };

export const LOCALES: readonly Locale[] = ['en', 'de', 'fr', 'es', 'ja', 'pt-BR', 'ar'];

/** The language every catalog falls back to, and the one the catalogs' keys are defined by. */
export const SOURCE_LOCALE: Locale = 'en';

/** The languages written right to left: their pages get `dir="rtl"`. */
const RIGHT_TO_LEFT: ReadonlySet<Locale> = new Set<Locale>(['ar']);

export const directionOf = (locale: Locale): 'ltr' | 'rtl' => (RIGHT_TO_LEFT.has(locale) ? 'rtl' : 'ltr');

/** Each language's own name for itself: what the switcher shows, the same in every page. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  ja: '日本語',
  'pt-BR': 'Português (Brasil)',
  ar: 'العربية',
};

/** A well-formed language tag (RFC 5646's shape, loosely): letters, then `-` and subtags. */
const TAG = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8}){0,7}$/;

/**
 * The supported locale a tag names, or null: an exact match whatever its case (`pt-br`), else its
 * language alone (`de-AT` → `de`, `en-US` → `en`, `pt-PT` → `pt-BR`, the one Portuguese there is).
 */
export function supportedLocale(tag: string): Locale | null {
  if (!TAG.test(tag)) return null;
  const lower = tag.toLowerCase();
  const exact = LOCALES.find((l) => l.toLowerCase() === lower);
  if (exact !== undefined) return exact;
  const language = lower.split('-')[0];
  return LOCALES.find((l) => l.toLowerCase().split('-')[0] === language) ?? null;
}

export const isLocale = (value: string): value is Locale => (LOCALES as readonly string[]).includes(value);
