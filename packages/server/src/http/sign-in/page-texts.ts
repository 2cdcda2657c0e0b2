import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { PASSWORD_LENGTH } from '../../domain/directory/index.js';
import type { InputProblem } from '../../domain/errors.js';
import { escapeHtml } from '../../domain/escape-html.js';
import { isLocale, LOCALE_NAMES, LOCALES, type Locale } from '../../domain/locales.js';
import { resumeBrowserSession } from '../../domain/sign-in/index.js';
import {
  chooseLocale,
  type MessageKey,
  type MessageValues,
  Texts,
  textsFor,
} from '../../domain/texts/index.js';
import type { Org } from '../../domain/types.js';
import { orgPathPrefix } from '../org-path.js';
import type { PageCookies } from './cookies.js';
import { SafeHtml } from './html.js';
import { pendingOfPage } from './page-pending.js';

/**
 * The language of a hosted page (DESIGN §21, docs/languages.md): negotiated once per request
 * before its handler runs (pageRoute), then read by the handler and the layout with textsOf.
 */
const TEXTS = new WeakMap<FastifyRequest, Texts>();

/** What negotiation reads: the store (requests, sessions, overrides) and the pages' cookies. */
interface PageContext {
  deps: Deps;
  cookies: PageCookies;
}

/** The switcher's query parameter: `?lang=de` picks German for this page and the next ones. */
export const LANGUAGE_PARAMETER = 'lang';

/** How long the switcher's choice is remembered. */
const CHOICE_MS = 365 * 24 * 60 * 60 * 1000;

/** The `req` ids whose request may carry `ui_locales`: authorization requests (a device's names none). */
const AUTHORIZATION_REQUEST = /^arq_[A-Za-z0-9_-]{1,64}$/;

function queryString(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The person's pick: `?lang=` (remembered in a cookie for the next pages), else that cookie. Only
 * a supported tag counts, so nothing the browser sent reaches a header or the page.
 */
function chosenLocale(ctx: PageContext, request: FastifyRequest, reply: FastifyReply): Locale | null {
  const asked = queryString(request, LANGUAGE_PARAMETER);
  if (asked !== undefined && isLocale(asked)) {
    ctx.cookies.set(reply, ctx.cookies.locale, asked, { maxAgeMs: CHOICE_MS });
    return asked;
  }
  const remembered = ctx.cookies.read(request, ctx.cookies.locale);
  return remembered !== null && isLocale(remembered) ? remembered : null;
}

/** The `ui_locales` of the authorization request the page is part of, preferred first. */
async function requestedLocales(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
): Promise<readonly Locale[]> {
  const id = queryString(request, 'req');
  if (id === undefined || !AUTHORIZATION_REQUEST.test(id)) return [];
  const pending = await pendingOfPage(ctx.deps, org, request, id);
  return pending !== null && 'request' in pending ? pending.request.uiLocales : [];
}

/** The signed-in user's saved `locale`, if the browser is signed in. */
async function savedLocale(ctx: PageContext, org: Org, request: FastifyRequest): Promise<string | null> {
  const secret = ctx.cookies.read(request, ctx.cookies.session);
  if (secret === null) return null;
  return (await resumeBrowserSession(ctx.deps, org, secret))?.user.locale ?? null;
}

/**
 * Decides the page's language, most binding first: the switcher's choice, the request's
 * `ui_locales`, the user's saved locale, `Accept-Language`, the org's default. Each later source
 * is read only when the ones before decided nothing.
 */
export async function negotiatePageTexts(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const chosen = chosenLocale(ctx, request, reply);
  const uiLocales = chosen === null ? await requestedLocales(ctx, org, request) : [];
  const saved = chosen === null && uiLocales.length === 0 ? await savedLocale(ctx, org, request) : null;
  const locale = chooseLocale({
    chosen,
    uiLocales,
    saved,
    acceptLanguage: request.headers['accept-language'],
    orgDefault: org.defaultLocale,
  });
  const texts = await textsFor(ctx.deps, org, locale);
  TEXTS.set(request, texts);
  reply.header('content-language', locale);
  return texts;
}

/**
 * The words of this request's page. A page refused before its handler ran (an error page) has
 * none negotiated: it speaks the browser's language, else the org's default, without overrides.
 */
export function textsOf(request: FastifyRequest): Texts {
  const texts = TEXTS.get(request);
  if (texts !== undefined) return texts;
  const fallback = new Texts(
    chooseLocale({
      acceptLanguage: request.headers['accept-language'],
      orgDefault: request.tesseraOrg?.defaultLocale ?? null,
    }),
  );
  TEXTS.set(request, fallback);
  return fallback;
}

/** What a message's arguments are given on a page: values, or markup (a `<strong>` name). */
export type PageValues = Readonly<Record<string, string | number | Date | SafeHtml>>;

/**
 * A message with markup in its arguments: the message is formatted with a marker in place of each
 * markup value, the result escaped like any text, then each marker replaced by its markup. The
 * marker holds a NUL, which no message can (message-rules.ts), so an org's words stay text.
 */
export function rich(texts: Texts, key: MessageKey, values: PageValues): SafeHtml {
  const markup: string[] = [];
  const plain: Record<string, string | number | Date> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value instanceof SafeHtml) {
      plain[name] = `\u0000${markup.length}\u0000`;
      markup.push(value.value);
    } else plain[name] = value;
  }
  const escaped = escapeHtml(texts.t(key, plain));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the marker is a NUL on purpose.
  return new SafeHtml(escaped.replace(/\u0000(\d+)\u0000/g, (_, i: string) => markup[Number(i)] ?? ''));
}

/** One entry of the language switcher. */
export interface LanguageLink {
  locale: Locale;
  name: string;
  href: string;
  current: boolean;
}

/**
 * The longest query the switcher's links carry again. Real pages' queries (a pending request's id, an
 * authorization request with a request object) are far shorter; a longer one would be copied into
 * the page once per language, so a page answering a crafted 100 KB query would weigh 700 KB.
 */
const MAX_KEPT_QUERY = 8 * 1024;

/**
 * The switcher's links: this page again, its query kept (the pending request, the host override),
 * with `lang` set to each language; a query over MAX_KEPT_QUERY is not kept, only `lang`.
 */
export function languageLinks(request: FastifyRequest, current: Locale): LanguageLink[] {
  const url = new URL(request.url, 'http://page.invalid');
  if (url.search.length > MAX_KEPT_QUERY) url.search = '';
  return LOCALES.map((locale) => {
    url.searchParams.set(LANGUAGE_PARAMETER, locale);
    return {
      locale,
      name: LOCALE_NAMES[locale],
      href: `${orgPathPrefix(request)}${url.pathname}${url.search}`,
      current: locale === current,
    };
  });
}

/** `t` and `rich` of one page's words, to destructure: `const { t, r } = bound(textsOf(request))`. */
export function bound(texts: Texts) {
  return {
    texts,
    t: (key: MessageKey, values?: MessageValues) => texts.t(key, values),
    r: (key: MessageKey, values: PageValues) => rich(texts, key, values),
  };
}

/**
 * What a page says of a refusal the domain described (its situation and English detail): the
 * catalog's words for that situation if it has them, the detail itself on an English page, else
 * the general sentence (the page shows the situation's code beside it).
 */
export function situationText(texts: Texts, situation: string, detail: string | undefined): string {
  const key = `situation.${situation}`;
  if (texts.has(key)) return texts.t(key);
  if (texts.locale === 'en' && detail !== undefined) return detail;
  return texts.t('error.generic');
}

/** The values the input rules' messages (`rule.*`) are given. */
const RULE_VALUES = { min: PASSWORD_LENGTH.min, max: PASSWORD_LENGTH.max } as const;

/**
 * Why a typed value was refused, as a clause for "Please check the form: {detail}." in the page's
 * language: the rule's own message (`rule.<situation>`), or the rule's English words where the
 * catalog has none (a rule no page's form can break).
 */
export function ruleText(texts: Texts, problem: InputProblem): string {
  const key = `rule.${problem.situation}`;
  return texts.has(key) ? texts.t(key, RULE_VALUES) : problem.detail;
}
