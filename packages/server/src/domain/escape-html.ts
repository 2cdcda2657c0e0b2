/**
 * HTML escaping: the one table for everything Tessera renders as HTML, the hosted pages
 * (http/sign-in/html.ts) and the mails (domain/mail/messages.ts). `&`, `<`, `>`, `"`, `'` and `` ` ``
 * become entities, so an escaped value is text in an element and in a quoted attribute alike.
 *
 * @example
 *   escapeHtml(`<a title="x">Tom's</a>`); // '&lt;a title=&quot;x&quot;&gt;Tom&#39;s&lt;/a&gt;'
 */
const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => ENTITIES[c] ?? c);
}
