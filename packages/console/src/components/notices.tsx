import type { ComponentChildren } from 'preact';
import { ApiError } from '../api/client.js';

/** What went wrong, in the API's own words (`error_detail`), announced to screen readers. */
export function ErrorNotice({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  let text: string;
  if (error instanceof ApiError) {
    text =
      error.status === 403 && error.code === 'forbidden'
        ? (error.detail ?? 'Only owners of this organization can do this.')
        : error.status === 404 && !error.detail
          ? 'Not found, or not yours to see.'
          : (error.detail ?? error.code);
  } else {
    text = error instanceof Error ? error.message : String(error);
  }
  return (
    <p class="notice error" role="alert">
      {text}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/** A list with nothing in it yet, and what to do about it. */
export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children}
    </div>
  );
}

/** A read-only view says why its buttons are missing. */
export function ReadOnlyNote() {
  return (
    <p class="notice info">
      You are a member of this organization: you can look, but only owners can change it.
    </p>
  );
}

export function Done({ children }: { children: ComponentChildren }) {
  return (
    <p class="notice success" role="status">
      {children}
    </p>
  );
}

/** What a screen's loaded part is doing while it is not there: loading, or the API's refusal. */
export function LoadNotice({ loaded, what }: { loaded: { state: string; error?: unknown }; what: string }) {
  if (loaded.state === 'loading') return <Loading what={what} />;
  return loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null;
}
