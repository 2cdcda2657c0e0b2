import IntlMessageFormat from 'intl-messageformat';
import { directionOf, type Locale, SOURCE_LOCALE } from '../locales.js';
import { CATALOGS, type MessageKey } from './catalogs/index.js';

/** What a message's `{arguments}` are given: text, counts, instants. */
export type MessageValues = Readonly<Record<string, string | number | Date>>;

/** An org's own words for some keys in one language (overrides.ts): key → ICU message. */
export type TextOverrides = ReadonlyMap<string, string>;

/** Compiled messages, by language and message text, shared by every request (catalog and overrides). */
const compiled = new Map<string, IntlMessageFormat>();
const MAX_COMPILED = 20_000;

/**
 * Compiles an ICU message (throws on bad syntax). Tags are text (`ignoreTag`): `<b>` in a
 * message is four characters, escaped like any other where it is shown.
 */
export function compileMessage(message: string, locale: Locale): IntlMessageFormat {
  const id = `${locale}\u0000${message}`;
  let format = compiled.get(id);
  if (format === undefined) {
    format = new IntlMessageFormat(message, locale, undefined, { ignoreTag: true });
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(id, format);
  }
  return format;
}

/** `message` formatted with `values`, or null when it cannot be (bad syntax, a value of the wrong kind). */
function formatted(message: string, locale: Locale, values: MessageValues | undefined): string | null {
  try {
    const out = compileMessage(message, locale).format(values as Record<string, string | number | Date>);
    return typeof out === 'string' ? out : String(out);
  } catch {
    return null;
  }
}

/**
 * The words of one page or mail in one language: the org's override of a key if it has one, else
 * the catalog's message, else English. Formatting never throws: a message that cannot be
 * formatted (an override gone wrong despite its checks on write) gives way to the next.
 */
export class Texts {
  constructor(
    readonly locale: Locale,
    private readonly overrides: TextOverrides = new Map(),
  ) {}

  get dir(): 'ltr' | 'rtl' {
    return directionOf(this.locale);
  }

  t(key: MessageKey, values?: MessageValues): string {
    const override = this.overrides.get(key);
    return (
      (override === undefined ? null : formatted(override, this.locale, values)) ??
      formatted(CATALOGS[this.locale][key], this.locale, values) ??
      formatted(CATALOGS[SOURCE_LOCALE][key], SOURCE_LOCALE, values) ??
      key
    );
  }

  /** Whether `key` names a message (a key built at run time, such as an error's situation). */
  has(key: string): key is MessageKey {
    return Object.hasOwn(CATALOGS[SOURCE_LOCALE], key);
  }
}
