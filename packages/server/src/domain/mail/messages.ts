import { escapeHtml } from '../escape-html.js';
import { type Locale, SOURCE_LOCALE, supportedLocale } from '../locales.js';
import { type MessageKey, type Texts, textsFor } from '../texts/index.js';
import type { Org } from '../types.js';
import type { MailDeps } from './deps.js';
import type { Mail } from './mailer.js';

/**
 * The mails Tessera sends: a subject naming the org, a plain-text body and an HTML body saying the
 * same, in the recipient's language (mailTexts). Every value put into the HTML is escaped
 * (escape-html.ts); the link is the only call to action.
 */

/**
 * The words of a mail to someone: their saved locale if it is one the mails speak, else the
 * language of the page that asked for it, else the org's default, with the org's overrides.
 */
export function mailTexts(
  deps: Pick<MailDeps, 'store'>,
  org: Org,
  saved: string | null,
  asked: Locale | null = null,
): Promise<Texts> {
  const locale = (saved ? supportedLocale(saved) : null) ?? asked ?? org.defaultLocale ?? SOURCE_LOCALE;
  return textsFor(deps, org, locale);
}

interface Message {
  subject: string;
  lines: string[];
  action: string;
  link: string;
  after: string;
}

const shell = (texts: Texts, subject: string, content: string) => `<!doctype html>
<html lang="${escapeHtml(texts.locale)}" dir="${texts.dir}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d2330;line-height:1.5">
${content}
</body></html>
`;

function render(texts: Texts, to: string, orgName: string, m: Message): Mail {
  const signature = texts.t('mail.signature', { org: orgName });
  const text = [...m.lines, '', `${m.action}:`, m.link, '', m.after, '', signature, ''].join('\n');
  const e = escapeHtml;
  const html = shell(
    texts,
    m.subject,
    `${m.lines.map((line) => `<p>${e(line)}</p>`).join('\n')}
<p><a href="${e(m.link)}" style="display:inline-block;padding:.6rem 1rem;background:#2f5bea;color:#fff;border-radius:8px;text-decoration:none;font-weight:600">${e(m.action)}</a></p>
<p style="color:#5b6475;font-size:.9rem">${e(texts.t('mail.button_fallback'))}<br>${e(m.link)}</p>
<p style="color:#5b6475;font-size:.9rem">${e(m.after)}</p>
<p style="color:#5b6475;font-size:.9rem">${e(signature)}</p>`,
  );
  return { to, subject: m.subject, text, html };
}

/** How long a link works: whole hours as hours, else minutes (each language its plural). */
const validity = (texts: Texts, minutes: number, inMinutes: MessageKey, inHours: MessageKey) =>
  minutes % 60 === 0 ? texts.t(inHours, { hours: minutes / 60 }) : texts.t(inMinutes, { minutes });

/** The password reset mail: a one-time link, valid for `minutes`. */
export function passwordResetMail(texts: Texts, org: Org, to: string, link: string, minutes: number): Mail {
  return render(texts, to, org.name, {
    subject: texts.t('mail.reset.subject', { org: org.name }),
    lines: [
      texts.t('mail.reset.asked', { org: org.name, email: to }),
      validity(texts, minutes, 'mail.reset.validity', 'mail.reset.validity_hours'),
    ],
    action: texts.t('mail.reset.action'),
    link,
    after: texts.t('mail.reset.after'),
  });
}

/** The address verification mail: a one-time link, valid for `minutes`. */
export function verificationMail(texts: Texts, org: Org, to: string, link: string, minutes: number): Mail {
  return render(texts, to, org.name, {
    subject: texts.t('mail.verify.subject', { org: org.name }),
    lines: [
      texts.t('mail.verify.asked', { org: org.name, email: to }),
      validity(texts, minutes, 'mail.verify.validity', 'mail.verify.validity_hours'),
    ],
    action: texts.t('mail.verify.action'),
    link,
    after: texts.t('mail.verify.after'),
  });
}

/**
 * Proving an account before an enterprise sign-in is linked to it (federation/account-link-proofs.ts):
 * a one-time link, valid for `minutes`, that works in the browser that signed in.
 */
export function accountLinkMail(
  texts: Texts,
  org: Org,
  to: string,
  connectionName: string,
  link: string,
  minutes: number,
): Mail {
  const connection = connectionName;
  return render(texts, to, org.name, {
    subject: texts.t('mail.link.subject', { org: org.name, connection }),
    lines: [
      texts.t('mail.link.asked', { org: org.name, email: to, connection }),
      texts.t('mail.link.validity', { connection, minutes }),
    ],
    action: texts.t('mail.link.action', { connection }),
    link,
    after: texts.t('mail.link.after'),
  });
}

/** To the previous address after an address change: no link, only the news and what to do. */
export function addressChangedMail(texts: Texts, org: Org, to: string, newAddress: string): Mail {
  const subject = texts.t('mail.changed.subject', { org: org.name });
  const lines = [
    texts.t('mail.changed.text', { org: org.name, from: to, to: newAddress }),
    texts.t('mail.changed.warning'),
  ];
  const signature = texts.t('mail.signature', { org: org.name });
  const text = [...lines, '', signature, ''].join('\n');
  const e = escapeHtml;
  const html = shell(
    texts,
    subject,
    `${lines.map((line) => `<p>${e(line)}</p>`).join('\n')}
<p style="color:#5b6475;font-size:.9rem">${e(signature)}</p>`,
  );
  return { to, subject, text, html };
}

/** An invitation: to be a user of `org` (its hosted pages), or a console member of it with a role. */
export function invitationMail(
  texts: Texts,
  org: Org,
  to: string,
  link: string,
  days: number,
  consoleRole: 'owner' | 'member' | null,
): Mail {
  const invited =
    consoleRole === null
      ? 'mail.invite.user'
      : consoleRole === 'owner'
        ? 'mail.invite.owner'
        : 'mail.invite.member';
  return render(texts, to, org.name, {
    subject: texts.t(consoleRole === null ? 'mail.invite.subject' : 'mail.invite.subject_console', {
      org: org.name,
    }),
    lines: [texts.t(invited, { org: org.name, email: to }), texts.t('mail.invite.validity', { days })],
    action: texts.t('mail.invite.action'),
    link,
    after: texts.t('mail.invite.after'),
  });
}
