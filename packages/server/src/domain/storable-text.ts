/**
 * Text the service can store: a NUL (U+0000) cannot be stored in a PostgreSQL text column, and
 * neither can a lone UTF-16 surrogate (which JSON.parse makes of "\ud800"); SQLite keeps both. The
 * edge refuses such text in every request (http/storable-text.ts); text decoded later, out of a
 * request object, is judged by the same rule.
 */

/** In unicode mode a well-formed surrogate pair is one code point, so only a lone half matches. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point
const UNSTORABLE = /[\u0000\ud800-\udfff]/u;

export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);
