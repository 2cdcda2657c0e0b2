import type { Handle } from '../../storage/handle.js';
import { deleteOrgText, findOrgTexts, upsertOrgText } from '../../storage/repos/org-texts.js';
import { recordUpdated } from '../audit/audit.js';
import { clock } from '../clock.js';
import type { CredentialCache } from '../credential-cache.js';
import { fail } from '../errors.js';
import { type Locale, SOURCE_LOCALE } from '../locales.js';
import type { Actor, Org } from '../types.js';
import { CATALOGS, type MessageKey } from './catalogs/index.js';
import { checkMessage } from './message-rules.js';
import { type TextOverrides, Texts } from './texts.js';

/** What the override functions need: the store and a unit of work for the writes. */
export interface TextsDeps {
  readonly store: Handle;
  /** The overrides read, kept until a change is committed (`tessera serve` only; DirectoryDeps.orgTexts). */
  readonly orgTexts?: CredentialCache<TextOverrides>;
  readonly unitOfWork: { run<T>(work: (tx: Handle) => Promise<T>): Promise<T> };
}

/** At most this many keys change in one request. */
export const MAX_TEXT_CHANGES = 100;

/** The org's own messages in `locale`, key → message, as stored now. */
export async function textOverrides(
  deps: Pick<TextsDeps, 'store'>,
  org: Org,
  locale: Locale,
): Promise<TextOverrides> {
  const rows = await findOrgTexts(deps.store, org.id, locale);
  return new Map(rows.map((r) => [r.key, r.message]));
}

/**
 * The words of a page or mail of `org` in `locale`: the catalog with the org's overrides, from the
 * change-notified cache when the runtime keeps one (every page of a sign-in reads them).
 */
export async function textsFor(
  deps: Pick<TextsDeps, 'store' | 'orgTexts'>,
  org: Org,
  locale: Locale,
): Promise<Texts> {
  const read = () => textOverrides(deps, org, locale);
  // A NUL cannot occur in an org id, so the key is unambiguous.
  const overrides = deps.orgTexts ? await deps.orgTexts.get(`${org.id}\0${locale}`, read) : await read();
  return new Texts(locale, overrides ?? new Map());
}

/**
 * Sets (a message) or removes (null) the org's own words for some keys in `locale`, all or none:
 * each key must be the catalog's and each message a valid ICU message that uses only the
 * arguments the English one has (message-rules.ts), so what is stored always formats. Audited
 * as one `texts.updated` entry with the messages before and after.
 */
export async function updateTextOverrides(
  deps: TextsDeps,
  org: Org,
  locale: Locale,
  changes: Readonly<Record<string, string | null>>,
  actor: Actor,
): Promise<TextOverrides> {
  const entries = Object.entries(changes);
  if (entries.length > MAX_TEXT_CHANGES)
    fail('texts.messages.too_many', `messages: at most ${MAX_TEXT_CHANGES} keys per request`);
  const checked = entries.map(([key, message]) => {
    if (!Object.hasOwn(CATALOGS[SOURCE_LOCALE], key))
      fail('texts.key.unknown', `messages.${key}: no such message in the catalog`);
    return {
      key: key as MessageKey,
      message: message === null ? null : checkMessage(key as MessageKey, locale, message),
    };
  });
  return deps.unitOfWork.run(async (tx) => {
    const before = await textOverrides({ store: tx }, org, locale);
    const now = clock.now();
    for (const { key, message } of checked) {
      if (message === null) await deleteOrgText(tx, org.id, locale, key);
      else await upsertOrgText(tx, org.id, { locale, key, message, updatedAt: now });
    }
    const after = await textOverrides({ store: tx }, org, locale);
    if (JSON.stringify([...before]) !== JSON.stringify([...after])) {
      await recordUpdated(tx, { orgId: org.id, actor, at: now }, 'texts', {
        before: { locale, messages: Object.fromEntries(before) },
        after: { locale, messages: Object.fromEntries(after) },
      });
    }
    return after;
  });
}
