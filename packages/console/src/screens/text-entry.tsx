import { useId, useState } from 'preact/hooks';
import { ApiError } from '../api/client.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { useAction } from '../use-action.js';
import { inLanguage, languageName } from './text-languages.js';

/** One message of the catalog as the texts screen shows it, with the org's own words if it has some. */
export interface TextRow {
  key: string;
  english: string;
  catalog: string;
  own: string | undefined;
}

/**
 * What the API said about this key, without the `messages.<key>: ` it starts with (the field is
 * beside it); any other refusal as it is.
 */
function refusalOf(key: string, error: unknown): string | null {
  if (error === null || error === undefined) return null;
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const detail = error.detail ?? error.code;
  const prefix = `messages.${key}: `;
  return detail.startsWith(prefix) ? detail.slice(prefix.length) : detail;
}

/**
 * One key: the English message beside the catalog's in the chosen language and the org's own, an
 * editor whose refusal (bad ICU, an argument the message does not take) is shown next to the field,
 * and a way back to the catalog. Every text is shown as text, whatever markup it holds.
 */
export function TextEntry({
  row,
  locale,
  orgName,
  save,
}: {
  row: TextRow;
  locale: string;
  orgName: string;
  save: (key: string, message: string | null) => Promise<void>;
}) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const { error, busy, run, setError } = useAction();
  const refusal = refusalOf(row.key, error);
  const key = <span class="visually-hidden"> {row.key}</span>;
  return (
    <li class="text-entry" aria-labelledby={`${id}-key`}>
      <h3 class="text-key">
        <code id={`${id}-key`}>{row.key}</code>
        {row.own === undefined ? null : <span class="badge info">Changed</span>}
      </h3>
      <dl class="text-values">
        {locale === 'en' ? null : (
          <>
            <dt class="text-label">English</dt>
            <dd class="text-value" {...inLanguage('en')}>
              {row.english}
            </dd>
          </>
        )}
        <dt class="text-label">Catalog, {languageName(locale)}</dt>
        <dd {...inLanguage(locale)} class={row.own === undefined ? 'text-value' : 'text-value replaced'}>
          {row.catalog}
        </dd>
        {row.own === undefined ? null : (
          <>
            <dt class="text-label">{orgName}’s text</dt>
            <dd class="text-value" {...inLanguage(locale)} data-testid="own-text">
              {row.own}
            </dd>
          </>
        )}
      </dl>
      {editing ? (
        <form
          class="form text-editor"
          aria-label={`Text for ${row.key}`}
          onSubmit={async (e) => {
            e.preventDefault();
            if (await run(() => save(row.key, draft))) setEditing(false);
          }}
        >
          <div class="field">
            <label for={`${id}-text`}>Text for {row.key}</label>
            <textarea
              id={`${id}-text`}
              rows={Math.min(8, Math.max(2, Math.ceil(draft.length / 60)))}
              maxLength={2000}
              spellcheck={true}
              {...inLanguage(locale)}
              value={draft}
              aria-invalid={refusal === null ? undefined : true}
              aria-describedby={`${refusal === null ? '' : `${id}-error `}${id}-hint`}
              onInput={(e) => setDraft((e.currentTarget as HTMLTextAreaElement).value)}
            />
            {refusal === null ? null : (
              <p id={`${id}-error`} class="field-error" role="alert">
                {refusal}
              </p>
            )}
            <p id={`${id}-hint`} class="hint">
              An ICU message: only the catalog’s {'{arguments}'}, plurals like{' '}
              <code>{'{minutes, plural, one {# minute} other {# minutes}}'}</code>. Markup is shown as
              written.
            </p>
          </div>
          <div class="actions">
            <button type="submit" disabled={busy}>
              Save text{key}
            </button>
            <button
              type="button"
              class="secondary"
              onClick={() => {
                setEditing(false);
                setError(null);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div class="actions">
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setDraft(row.own ?? row.catalog);
              setError(null);
              setEditing(true);
            }}
          >
            Edit{key}
          </button>
          {row.own === undefined ? null : (
            <ConfirmButton
              question={`Go back to the catalog’s text for ${row.key}?`}
              confirmLabel="Reset"
              danger={false}
              onConfirm={() => run(() => save(row.key, null)).then(() => undefined)}
            >
              Reset to catalog{key}
            </ConfirmButton>
          )}
          {refusal !== null && !editing ? (
            <p class="field-error" role="alert">
              {refusal}
            </p>
          ) : null}
        </div>
      )}
    </li>
  );
}
