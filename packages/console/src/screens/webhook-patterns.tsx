import { useId, useState } from 'preact/hooks';
import type { AuditEvent } from '../api/types.js';

/**
 * The verbs of routing keys (server: domain/webhooks/routing-keys.ts VERBS), keyed by the document's
 * enum of them, so a verb the server adds or drops fails the typecheck here.
 */
const VERB_KEYS: Record<AuditEvent['verb'], true> = {
  created: true,
  updated: true,
  deleted: true,
  login: true,
};
const VERBS = Object.keys(VERB_KEYS);
/** `#`, or `<entity>.<verb>` where either part may be `*` (server: ROUTING_PATTERN). */
const PATTERN = new RegExp(`^(#|(\\*|[a-z0-9_-]{1,64})\\.(\\*|${VERBS.join('|')}))$`);
/** The API takes 1 to 50 patterns. */
const MAX_PATTERNS = 50;

/** Patterns people pick most, each with what it sends. */
const COMMON: readonly (readonly [pattern: string, what: string])[] = [
  ['#', 'every event'],
  ['user.*', 'every user event'],
  ['user.login', 'sign-ins'],
  ['tenant.*', 'every tenant event'],
  ['client.*', 'every client event'],
  ['membership.*', 'console members'],
  ['*.created', 'anything created'],
  ['*.deleted', 'anything deleted'],
];

/** The patterns being edited, and a typed one not added yet (a submit takes it too). */
export interface PatternsState {
  patterns: string[];
  setPatterns: (patterns: string[]) => void;
  draft: string;
  setDraft: (draft: string) => void;
  /** What to send: the chosen patterns, and the draft when there is one. */
  all: () => string[];
}

export function usePatterns(initial: string[]): PatternsState {
  const [patterns, setPatterns] = useState(initial);
  const [draft, setDraft] = useState('');
  return {
    patterns,
    setPatterns,
    draft,
    setDraft,
    all: () => {
      const typed = draft.trim();
      return typed && !patterns.includes(typed) ? [...patterns, typed] : patterns;
    },
  };
}

/**
 * The pattern helper: chosen patterns as removable chips, a field to add one (checked as the API
 * checks it), quick-add buttons for common ones, and what `*` and `#` mean.
 */
export function PatternEditor({ state }: { state: PatternsState }) {
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const { patterns, setPatterns, draft, setDraft } = state;

  const add = (raw: string) => {
    const pattern = raw.trim();
    if (pattern === '') return;
    if (!PATTERN.test(pattern)) {
      setProblem(
        `“${pattern}” is not a pattern: use #, or entity.verb where either part may be * (verbs: ${VERBS.join(', ')}).`,
      );
      return;
    }
    setProblem(null);
    if (raw === draft) setDraft('');
    if (patterns.includes(pattern)) return;
    if (patterns.length >= MAX_PATTERNS) {
      setProblem(`A webhook takes at most ${MAX_PATTERNS} patterns.`);
      return;
    }
    setPatterns([...patterns, pattern]);
  };

  return (
    <fieldset class="patterns" aria-describedby={`${id}-explain`}>
      <legend>Events</legend>
      <p id={`${id}-explain`} class="hint">
        Patterns of routing keys <code>entity.verb</code> (verbs: {VERBS.join(', ')}). <code>*</code> stands
        for exactly one part: <code>user.*</code> is every user event, <code>*.deleted</code> every deletion.{' '}
        <code>#</code> alone is every event.
      </p>
      {patterns.length > 0 ? (
        <ul class="chips" aria-label="Chosen patterns">
          {patterns.map((p) => (
            <li key={p} class="chip">
              <code>{p}</code>
              <button
                type="button"
                class="chip-remove"
                aria-label={`Remove ${p}`}
                onClick={() => setPatterns(patterns.filter((q) => q !== p))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No patterns yet: add at least one.</p>
      )}
      <div class="pattern-add">
        <div class="field">
          <label for={`${id}-add`}>Add a pattern</label>
          <input
            id={`${id}-add`}
            type="text"
            value={draft}
            autoComplete="off"
            spellcheck={false}
            placeholder="tenant.updated"
            onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add(draft);
              }
            }}
          />
        </div>
        <button type="button" class="secondary" onClick={() => add(draft)}>
          Add
        </button>
      </div>
      {problem ? (
        <p class="notice error" role="alert">
          {problem}
        </p>
      ) : null}
      <fieldset class="quick">
        <legend>Common patterns</legend>
        {COMMON.map(([pattern, what]) => (
          <button
            key={pattern}
            type="button"
            class="secondary quick-add"
            disabled={patterns.includes(pattern)}
            onClick={() => add(pattern)}
          >
            <span class="visually-hidden">Add </span>
            <code>{pattern}</code> <span class="quick-what">{what}</span>
          </button>
        ))}
      </fieldset>
    </fieldset>
  );
}

/** Patterns as code chips (read-only). */
export function PatternList({ patterns }: { patterns: string[] }) {
  return (
    <ul class="chips">
      {patterns.map((p) => (
        <li key={p} class="chip">
          <code>{p}</code>
        </li>
      ))}
    </ul>
  );
}
