/** The hosted pages' languages (GET /organizations/{org}/texts/{locale}), each named in itself. */
export const LANGUAGES = [
  ['en', 'English'],
  ['de', 'Deutsch'],
  ['fr', 'Français'],
  ['es', 'Español'],
  ['ja', '日本語'],
  ['pt-BR', 'Português (Brasil)'],
  ['ar', 'العربية'],
] as const;

export type Language = (typeof LANGUAGES)[number][0];

export const isLanguage = (value: string | null): value is Language =>
  LANGUAGES.some(([tag]) => tag === value);

/** A language's own name and its tag: `Deutsch (de)`. */
export const languageName = (tag: string) => `${LANGUAGES.find(([t]) => t === tag)?.[1] ?? tag} (${tag})`;

/** The attributes that let a browser and a screen reader read a text in its own language. */
export const inLanguage = (tag: string) => ({ lang: tag, dir: tag === 'ar' ? 'rtl' : 'ltr' }) as const;
