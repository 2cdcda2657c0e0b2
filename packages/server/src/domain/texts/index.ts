/**
 * The public face of domain/texts/ (DESIGN §21): the catalogs, the language negotiation, the
 * words of one page or mail, and the orgs' own messages.
 */
export { CATALOGS, type Catalog, MESSAGE_KEYS, type MessageKey } from './catalogs/index.js';
export { MAX_MESSAGE_LENGTH } from './message-rules.js';
export { chooseLocale, type LocaleSources, parseAcceptLanguage, parseUiLocales } from './negotiation.js';
export {
  MAX_TEXT_CHANGES,
  type TextsDeps,
  textOverrides,
  textsFor,
  updateTextOverrides,
} from './overrides.js';
export { type MessageValues, type TextOverrides, Texts } from './texts.js';
