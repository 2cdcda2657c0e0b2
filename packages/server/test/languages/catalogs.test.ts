import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ServiceError } from '../../src/domain/errors.js';
import { LOCALES } from '../../src/domain/locales.js';
import {
  CATALOGS,
  chooseLocale,
  MESSAGE_KEYS,
  parseAcceptLanguage,
  parseUiLocales,
  Texts,
} from '../../src/domain/texts/index.js';
import { checkMessage } from '../../src/domain/texts/message-rules.js';

/** The situation of what `work` throws, or null when it returns. */
function refusal(work: () => unknown): string | null {
  try {
    work();
    return null;
  } catch (error) {
    if (error instanceof ServiceError) return error.situation;
    throw error;
  }
}

describe('the catalogs', () => {
  test('every message of every language is valid ICU using only the English message’s arguments', () => {
    for (const locale of LOCALES) {
      for (const key of MESSAGE_KEYS) {
        assert.equal(
          refusal(() => checkMessage(key, locale, CATALOGS[locale][key])),
          null,
          `${locale} ${key}: ${CATALOGS[locale][key]}`,
        );
      }
    }
  });

  test('plurals and dates follow each language', () => {
    assert.equal(
      new Texts('en').t('throttled.attempts', { minutes: 1 }),
      'Too many attempts. Try again in 1 minute.',
    );
    assert.equal(
      new Texts('de').t('second_factor.codes_left', { count: 1 }),
      'Sie haben noch 1 Wiederherstellungscode.',
    );
    assert.equal(
      new Texts('ar').t('signup.sent.validity', { hours: 2 }),
      'يعمل الرابط مرة واحدة، لمدة ساعتين.',
    );
    const day = new Date(Date.UTC(2026, 10, 29, 12));
    assert.equal(new Texts('en').t('passkeys.added', { date: day }), 'Added Nov 29, 2026');
    assert.equal(new Texts('de').t('passkeys.added', { date: day }), 'Hinzugefügt am 29. Nov. 2026');
    assert.equal(new Texts('ja').t('passkeys.added', { date: day }), '2026年11月29日に追加');
  });

  test('an override that cannot be formatted gives way to the catalog, never an exception', () => {
    const texts = new Texts('de', new Map([['login.throttled', '{minutes, plural, other {# Min}']]));
    assert.match(texts.t('login.throttled', { minutes: 3 }), /^Zu viele Anmeldeversuche/);
    const wrongKind = new Texts('fr', new Map([['login.title', '{nothing, date, short}']]));
    assert.equal(wrongKind.t('login.title'), 'Connexion');
  });
});

describe('override rules', () => {
  test('syntax, unknown arguments, control characters and length are refused; tags stay text', () => {
    assert.equal(
      refusal(() => checkMessage('login.title', 'de', 'Anmelden {')),
      'texts.message.syntax',
    );
    assert.equal(
      refusal(() => checkMessage('login.title', 'de', 'Hallo {email}')),
      'texts.message.argument',
    );
    assert.equal(
      refusal(() => checkMessage('login.title', 'de', 'a\u0000b')),
      'texts.message.control_characters',
    );
    assert.equal(
      refusal(() => checkMessage('login.title', 'de', 'x'.repeat(2001))),
      'texts.message.too_long',
    );
    assert.equal(
      refusal(() => checkMessage('signed_in.as', 'de', '{email, plural, other {#}}')),
      'texts.message.format',
    );
    assert.equal(
      refusal(() => checkMessage('login.title', 'de', '<script>alert(1)</script>')),
      null,
    );
    assert.equal(new Texts('de', new Map([['login.title', '<b>{x</b>']])).t('login.title'), 'Anmelden');
  });
});

describe('negotiation', () => {
  test('ui_locales keeps supported tags, preferred first; garbage and huge values are no preference', () => {
    assert.deepEqual(parseUiLocales('fr-CA de pt'), ['fr', 'de', 'pt-BR']);
    assert.deepEqual(parseUiLocales('xx-YY <script> \r\nSet-Cookie: a=b'), []);
    assert.deepEqual(parseUiLocales(`${'de '.repeat(400)}`), []);
    assert.deepEqual(parseUiLocales('zh ja'), ['ja']);
  });

  test('Accept-Language by weight; q=0 excluded', () => {
    assert.deepEqual(parseAcceptLanguage('en;q=0.5, de-DE;q=0.9, fr;q=0'), ['de', 'en']);
    assert.deepEqual(parseAcceptLanguage('*'), []);
  });

  test('the order: switcher, ui_locales, saved, Accept-Language, org default, English', () => {
    const all = {
      chosen: 'ar',
      uiLocales: ['ja'],
      saved: 'es-MX',
      acceptLanguage: 'fr',
      orgDefault: 'de',
    } as const;
    assert.equal(chooseLocale(all), 'ar');
    assert.equal(chooseLocale({ ...all, chosen: null }), 'ja');
    assert.equal(chooseLocale({ ...all, chosen: null, uiLocales: [] }), 'es');
    assert.equal(chooseLocale({ ...all, chosen: null, uiLocales: [], saved: null }), 'fr');
    assert.equal(chooseLocale({ orgDefault: 'de', acceptLanguage: 'zh' }), 'de');
    assert.equal(chooseLocale({}), 'en');
  });
});
