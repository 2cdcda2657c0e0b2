import { html, type SafeHtml } from './html.js';

/** A "Sign in with …" link per connection, below the login form. */
export function connectionButtonsView(buttons: { name: string; href: string }[]): SafeHtml | null {
  if (buttons.length === 0) return null;
  return html`<div class="sso-list">${buttons.map(
    (b) => html`<a class="sso" href="${b.href}">Sign in with ${b.name}</a>`,
  )}</div>`;
}
