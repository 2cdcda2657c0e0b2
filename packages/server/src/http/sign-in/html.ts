import { escapeHtml } from '../../domain/escape-html.js';

/**
 * The one template helper of the hosted pages. Every interpolated value is escaped, except
 * fragments that are themselves the output of `html` — so a client named `<script>` renders as
 * text, and nothing reaches the page without passing through here (domain/escape-html.ts's table).
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** Tagged template: `html\`<p>${name}</p>\`` escapes `name`; nested `html` fragments pass as they are. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}
