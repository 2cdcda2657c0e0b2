import type IntlMessageFormat from 'intl-messageformat';
import { fail } from '../errors.js';
import { type Locale, SOURCE_LOCALE } from '../locales.js';
import { CATALOGS, type MessageKey } from './catalogs/index.js';
import { compileMessage, type MessageValues } from './texts.js';

/** The longest message an org may write. */
export const MAX_MESSAGE_LENGTH = 2000;

/** Element kinds of the parsed message (@formatjs/icu-messageformat-parser's TYPE). */
const ARGUMENT = 1;
const NUMBER = 2;
const DATE = 3;
const TIME = 4;
const SELECT = 5;
const PLURAL = 6;

type Kind = 'text' | 'number' | 'date';
type MessageFormatElement = ReturnType<IntlMessageFormat['getAst']>[number];

/** The arguments a message uses, each with the kind of value it takes. */
function argumentsOf(elements: readonly MessageFormatElement[], into = new Map<string, Kind>()) {
  for (const el of elements) {
    const e = el as {
      type: number;
      value?: unknown;
      options?: Record<string, { value: MessageFormatElement[] }>;
    };
    const name = typeof e.value === 'string' ? e.value : null;
    if (name !== null && e.type === ARGUMENT && !into.has(name)) into.set(name, 'text');
    if (name !== null && (e.type === NUMBER || e.type === PLURAL)) into.set(name, 'number');
    if (name !== null && (e.type === DATE || e.type === TIME)) into.set(name, 'date');
    if (name !== null && e.type === SELECT && !into.has(name)) into.set(name, 'text');
    if (e.type === SELECT || e.type === PLURAL) {
      for (const option of Object.values(e.options ?? {})) argumentsOf(option.value, into);
    }
  }
  return into;
}

/** A value of each kind to try a message with. */
const SAMPLES: Readonly<Record<Kind, string | number | Date>> = { text: 'x', number: 2, date: new Date(0) };

/**
 * An org's message for `key` in `locale`, checked so that it formats whenever the catalog's does:
 * no control characters, at most MAX_MESSAGE_LENGTH characters, valid ICU syntax, only the
 * arguments the English message has (with values of the kinds it gives them), and formatting it
 * with such values succeeds. Anything else is `invalid_request` naming the key.
 */
export function checkMessage(key: MessageKey, locale: Locale, message: string): string {
  const where = `messages.${key}`;
  if (message.length > MAX_MESSAGE_LENGTH)
    fail('texts.message.too_long', `${where}: at most ${MAX_MESSAGE_LENGTH} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(message))
    fail('texts.message.control_characters', `${where}: control characters are not allowed`);
  let used: Map<string, Kind>;
  try {
    used = argumentsOf(compileMessage(message, locale).getAst());
  } catch {
    return fail('texts.message.syntax', `${where}: not a valid ICU message`);
  }
  const known = argumentsOf(compileMessage(CATALOGS[SOURCE_LOCALE][key], SOURCE_LOCALE).getAst());
  const values: Record<string, string | number | Date> = {};
  for (const [name, kind] of known) values[name] = SAMPLES[kind];
  for (const [name, kind] of used) {
    const given = known.get(name);
    if (given === undefined) {
      const allowed = [...known.keys()].map((n) => `{${n}}`).join(', ') || 'none';
      fail('texts.message.argument', `${where}: unknown argument {${name}}; this message takes ${allowed}`);
    }
    // Any value reads as text; a number or an instant only where the catalog gives one.
    if (kind !== 'text' && kind !== given)
      fail(
        'texts.message.format',
        `${where}: {${name}} is ${given === 'text' ? 'text' : `a ${given}`} here, not a ${kind}`,
      );
  }
  try {
    compileMessage(message, locale).format(values as MessageValues as Record<string, string>);
  } catch {
    fail('texts.message.format', `${where}: cannot be formatted with this message's arguments`);
  }
  return message;
}
