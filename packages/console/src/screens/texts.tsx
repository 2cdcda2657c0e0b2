import { useMemo, useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { inOrg } from '../api/params.js';
import { CheckboxField, Form, SelectField, TextField } from '../components/fields.js';
import { Done, ErrorNotice, Loading } from '../components/notices.js';
import { forOwners } from '../components/page-head.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref, useLocation } from '../router.js';
import { useAction } from '../use-action.js';
import { useLoad } from '../use-load.js';
import { TextEntry, type TextRow } from './text-entry.js';
import { isLanguage, LANGUAGES, type Language, languageName } from './text-languages.js';

type Org = OrgScreenProps['org'];

/**
 * The words of the org's sign-in pages and mails (owners only, like the API): its default language,
 * and per language every message of the catalog with the org's own in its place where it has one.
 */
export const Texts = forOwners('Texts', TextsOwnersOnly, TextsScreen);

function TextsOwnersOnly() {
  return (
    <p class="notice info">
      Only owners of this organization can see and change the texts of its sign-in pages and mails, and its
      default language.
    </p>
  );
}

function TextsScreen({ org }: { org: Org }) {
  const { query } = useLocation();
  const asked = query.get('lang');
  const locale: Language = isLanguage(asked) ? asked : 'en';
  return (
    <>
      <h1>Texts</h1>
      <p class="muted">
        What {org.name}’s sign-in pages and mails say, in each language they speak. Your text replaces the
        catalog’s for that language only; everything else keeps the catalog’s words.
      </p>
      <DefaultLanguage org={org} />
      <Messages key={locale} org={org} locale={locale} />
    </>
  );
}

const NONE = '';

/** The language a page falls back to when neither the application nor the browser names one. */
function DefaultLanguage({ org }: { org: Org }) {
  const loaded = useLoad(() => body(api.GET('/organizations/{org}/settings', inOrg(org.slug))), [org.slug]);
  const [choice, setChoice] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const { error, busy, run } = useAction();
  if (loaded.state !== 'ok')
    return loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : <Loading what="settings" />;
  const current = loaded.data.default_locale ?? NONE;
  const value = choice ?? current;
  return (
    <section class="panel" aria-labelledby="default-language-title">
      <h2 id="default-language-title">Default language</h2>
      <ErrorNotice error={error} />
      {saved === null ? null : <Done>{saved}</Done>}
      <Form
        label="Default language"
        onSubmit={() =>
          run(async () => {
            setSaved(null);
            await body(
              api.PATCH('/organizations/{org}/settings', {
                ...inOrg(org.slug),
                body: { default_locale: value === NONE ? null : (value as Language) },
              }),
            );
            setSaved(
              value === NONE
                ? 'Default language removed: pages without another choice are in English.'
                : `Default language saved: ${languageName(value)}.`,
            );
            setChoice(null);
            loaded.reload();
          })
        }
      >
        <SelectField
          label="Language of the pages when nothing else chooses"
          name="default_locale"
          value={value}
          options={[[NONE, 'None (English)'], ...LANGUAGES.map(([tag]) => [tag, languageName(tag)] as const)]}
          onChange={setChoice}
          hint="The person’s choice on the page, the application’s ui_locales, the user’s saved language and the browser’s languages come first."
        />
        <div>
          <button type="submit" disabled={busy || value === current}>
            Save default language
          </button>
        </div>
      </Form>
    </section>
  );
}

/** Every message of one language: the English one beside it, search, and the org's own words. */
function Messages({ org, locale }: { org: Org; locale: Language }) {
  const [search, setSearch] = useState('');
  const [onlyOwn, setOnlyOwn] = useState(false);
  const [news, setNews] = useState<string | null>(null);
  const path = { params: { path: { org: org.slug, locale } } };
  const loaded = useLoad(async () => {
    const [texts, english] = await Promise.all([
      body(api.GET('/organizations/{org}/texts/{locale}', path)),
      locale === 'en'
        ? null
        : body(
            api.GET('/organizations/{org}/texts/{locale}', {
              params: { path: { org: org.slug, locale: 'en' } },
            }),
          ),
    ]);
    return { own: texts.messages, catalog: texts.catalog, english: (english ?? texts).catalog };
  }, [org.slug, locale]);
  const [own, setOwn] = useState<Record<string, string> | null>(null);
  const data = loaded.state === 'ok' ? loaded.data : null;
  const messages = own ?? data?.own ?? {};
  const rows = useMemo<TextRow[]>(
    () =>
      data === null
        ? []
        : Object.keys(data.english)
            .sort()
            .map((key) => ({
              key,
              english: data.english[key] ?? '',
              catalog: data.catalog[key] ?? '',
              own: messages[key],
            })),
    [data, messages],
  );
  const words = search.trim().toLowerCase();
  const shown = rows.filter(
    (r) =>
      (!onlyOwn || r.own !== undefined) &&
      (words === '' ||
        [r.key, r.english, r.catalog, r.own ?? ''].some((text) => text.toLowerCase().includes(words))),
  );
  const save = async (key: string, message: string | null) => {
    const after = await body(
      api.PATCH('/organizations/{org}/texts/{locale}', { ...path, body: { messages: { [key]: message } } }),
    );
    setOwn(after.messages);
    setNews(message === null ? `${key} is back to the catalog’s text.` : `${key} saved.`);
  };
  return (
    <section aria-labelledby="messages-title">
      <h2 id="messages-title">Messages</h2>
      <div class="toolbar texts-toolbar">
        <div class="texts-filter">
          <SelectField
            label="Language"
            name="lang"
            value={locale}
            options={LANGUAGES.map(([tag]) => [tag, languageName(tag)] as const)}
            onChange={(tag) =>
              navigate(
                `${orgHref(org.slug, 'texts')}${tag === 'en' ? '' : `?lang=${encodeURIComponent(tag)}`}`,
                {
                  replace: true,
                },
              )
            }
          />
        </div>
        <div class="texts-filter">
          <TextField
            label="Search keys and texts"
            name="q"
            type="search"
            value={search}
            onInput={setSearch}
          />
        </div>
        <div class="texts-filter own">
          <CheckboxField
            label={`Only ${org.name}’s own texts`}
            name="own"
            checked={onlyOwn}
            onChange={setOnlyOwn}
          />
        </div>
      </div>
      {news === null ? null : <Done>{news}</Done>}
      {loaded.state === 'loading' ? <Loading what="texts" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {data === null ? null : (
        <>
          <p class="muted" aria-live="polite">
            {shown.length === rows.length
              ? `${rows.length} messages, ${Object.keys(messages).length} of them ${org.name}’s own.`
              : `${shown.length} of ${rows.length} messages.`}
          </p>
          <ul class="text-list">
            {shown.map((row) => (
              <TextEntry key={row.key} row={row} locale={locale} orgName={org.name} save={save} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
