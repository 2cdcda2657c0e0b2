import { effectiveBranding } from '../branding/branding.js';
import { inkOn } from '../branding/colours.js';
import { EXTENSIONS } from '../branding/images.js';
import { escapeHtml } from '../escape-html.js';
import { originOf } from '../issuers.js';
import { type Locale, SOURCE_LOCALE, supportedLocale } from '../locales.js';
import { type MessageKey, Texts, textsFor } from '../texts/index.js';
import type { Branding, Org } from '../types.js';
import type { MailDeps } from './deps.js';
import type { Mail } from './mailer.js';

/**
 * The mails Tessera sends: a subject naming the org, a plain-text body and an HTML body saying the
 * same, in the recipient's language (mailTexts). Every value put into the HTML is escaped
 * (escape-html.ts); the link is the only call to action.
 */

/**
 * The org's brand as a mail shows it (DESIGN §21, docs/branding.md): its name, its logo at its
 * absolute address on the org's host (mail clients load nothing relative), the button in its
 * primary colour with the ink chosen for it, its terms and privacy links. The org's own brand: a
 * mail is read later, elsewhere, not on a page reached for one client.
 */
export interface MailBrand {
  name: string | null;
  logo: { url: string; width: number; height: number } | null;
  primary: string;
  onPrimary: string;
  termsUrl: string | null;
  privacyUrl: string | null;
}

/** The pages' own look: no name, no logo, their blue. */
const NO_MAIL_BRAND: MailBrand = {
  name: null,
  logo: null,
  primary: '#2f5bea',
  onPrimary: '#ffffff',
  termsUrl: null,
  privacyUrl: null,
};

/** A logo shown at most this tall in a mail; its width follows its proportions. */
const MAIL_LOGO_HEIGHT = 48;

function mailBrandOf(deps: Pick<MailDeps, 'config'>, org: Org, b: Branding): MailBrand {
  const logo = b.logo;
  const scale = logo === null ? 1 : Math.min(1, MAIL_LOGO_HEIGHT / logo.height);
  return {
    name: b.displayName,
    logo:
      logo === null
        ? null
        : {
            url: `${originOf(deps.config, org)}/branding/${logo.sha256}.${EXTENSIONS[logo.mediaType]}`,
            width: Math.max(1, Math.round(logo.width * scale)),
            height: Math.max(1, Math.round(logo.height * scale)),
          },
    primary: b.primary ?? NO_MAIL_BRAND.primary,
    onPrimary: b.primary === null ? NO_MAIL_BRAND.onPrimary : inkOn(b.primary).ink,
    termsUrl: b.termsUrl,
    privacyUrl: b.privacyUrl,
  };
}

/** What a mail is written with: its words and the org's brand. */
export interface MailFrame {
  texts: Texts;
  brand: MailBrand;
}

/**
 * The words and brand of a mail to someone: their saved locale if it is one the mails speak, else
 * the language of the page that asked for it, else the org's default, with the org's overrides;
 * the org's brand.
 */
export async function mailTexts(
  deps: Pick<MailDeps, 'store' | 'config'>,
  org: Org,
  saved: string | null,
  asked: Locale | null = null,
): Promise<MailFrame> {
  const locale = (saved ? supportedLocale(saved) : null) ?? asked ?? org.defaultLocale ?? SOURCE_LOCALE;
  const [texts, brand] = await Promise.all([textsFor(deps, org, locale), effectiveBranding(deps, org, null)]);
  return { texts, brand: mailBrandOf(deps, org, brand) };
}

/** A frame of words alone (no brand): the pages' own look. */
const frameOf = (words: Texts | MailFrame): MailFrame =>
  words instanceof Texts ? { texts: words, brand: NO_MAIL_BRAND } : words;

/** The name a mail signs with: the brand's display name, else the org's. */
const nameOf = (frame: MailFrame, org: Org) => frame.brand.name ?? org.name;

interface Message {
  subject: string;
  lines: string[];
  /** The mail's one call to action, when it has one: the button's words, its link, and a line after it. */
  call?: { action: string; link: string; after: string };
}

/** The brand's head of a mail: its logo (absolute URL, decorative: the name is in the text) and name. */
function brandHeader(frame: MailFrame, name: string): string {
  const e = escapeHtml;
  const logo = frame.brand.logo;
  const img =
    logo === null
      ? ''
      : `<img src="${e(logo.url)}" alt="" width="${logo.width}" height="${logo.height}" style="display:block;margin:0 0 .5rem;border:0">`;
  return `<div style="margin:0 0 1rem">${img}<p style="margin:0;font-weight:600;font-size:1.1rem">${e(name)}</p></div>`;
}

/** The brand's terms and privacy links, as HTML and as text lines. */
function legal(frame: MailFrame): { html: string; lines: string[] } {
  const e = escapeHtml;
  const links = [
    ...(frame.brand.termsUrl === null ? [] : [[frame.texts.t('page.terms'), frame.brand.termsUrl] as const]),
    ...(frame.brand.privacyUrl === null
      ? []
      : [[frame.texts.t('page.privacy'), frame.brand.privacyUrl] as const]),
  ];
  if (links.length === 0) return { html: '', lines: [] };
  return {
    html: `<p style="color:#5b6475;font-size:.85rem">${links.map(([words, url]) => `<a href="${e(url)}" style="color:#5b6475">${e(words)}</a>`).join(' · ')}</p>`,
    lines: ['', ...links.map(([words, url]) => `${words}: ${url}`)],
  };
}

const shell = (frame: MailFrame, name: string, subject: string, content: string) => `<!doctype html>
<html lang="${escapeHtml(frame.texts.locale)}" dir="${frame.texts.dir}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d2330;line-height:1.5">
${brandHeader(frame, name)}
${content}
${legal(frame).html}
</body></html>
`;

/** A paragraph in the muted small print under a mail's message. */
const muted = (html: string) => `<p style="color:#5b6475;font-size:.9rem">${html}</p>`;

/** The mail's text and HTML bodies: the brand, the lines, the call to action if any, the signature. */
function render(frame: MailFrame, to: string, orgName: string, m: Message): Mail {
  const { texts, brand } = frame;
  const signature = texts.t('mail.signature', { org: orgName });
  const { call } = m;
  const text = [
    orgName,
    '',
    ...m.lines,
    '',
    ...(call === undefined ? [] : [`${call.action}:`, call.link, '', call.after, '']),
    signature,
    ...legal(frame).lines,
    '',
  ].join('\n');
  const e = escapeHtml;
  const html = shell(
    frame,
    orgName,
    m.subject,
    [
      ...m.lines.map((line) => `<p>${e(line)}</p>`),
      ...(call === undefined
        ? []
        : [
            `<p><a href="${e(call.link)}" style="display:inline-block;padding:.6rem 1rem;background:${brand.primary};color:${brand.onPrimary};border-radius:8px;text-decoration:none;font-weight:600">${e(call.action)}</a></p>`,
            muted(`${e(texts.t('mail.button_fallback'))}<br>${e(call.link)}`),
            muted(e(call.after)),
          ]),
      muted(e(signature)),
    ].join('\n'),
  );
  return { to, subject: m.subject, text, html };
}

/** How long a link works: whole hours as hours, else minutes (each language its plural). */
const validity = (texts: Texts, minutes: number, inMinutes: MessageKey, inHours: MessageKey) =>
  minutes % 60 === 0 ? texts.t(inHours, { hours: minutes / 60 }) : texts.t(inMinutes, { minutes });

/**
 * The builder of a mail whose one-time link, valid for `minutes`, the recipient asked for at their
 * address: a password reset (`mail.reset.*` words) or an address verification (`mail.verify.*`).
 */
const askedLinkMail =
  (kind: 'reset' | 'verify') =>
  (words: Texts | MailFrame, org: Org, to: string, link: string, minutes: number): Mail => {
    const frame = frameOf(words);
    const { texts } = frame;
    const name = nameOf(frame, org);
    return render(frame, to, name, {
      subject: texts.t(`mail.${kind}.subject`, { org: name }),
      lines: [
        texts.t(`mail.${kind}.asked`, { org: name, email: to }),
        validity(texts, minutes, `mail.${kind}.validity`, `mail.${kind}.validity_hours`),
      ],
      call: { action: texts.t(`mail.${kind}.action`), link, after: texts.t(`mail.${kind}.after`) },
    });
  };

/** The password reset mail: a one-time link, valid for `minutes`. */
export const passwordResetMail = askedLinkMail('reset');

/** The address verification mail: a one-time link, valid for `minutes`. */
export const verificationMail = askedLinkMail('verify');

/**
 * Proving an account before an enterprise sign-in is linked to it (federation/account-link-proofs.ts):
 * a one-time link, valid for `minutes`, that works in the browser that signed in.
 */
export function accountLinkMail(
  words: Texts | MailFrame,
  org: Org,
  to: string,
  connectionName: string,
  link: string,
  minutes: number,
): Mail {
  const frame = frameOf(words);
  const { texts } = frame;
  const name = nameOf(frame, org);
  const connection = connectionName;
  return render(frame, to, name, {
    subject: texts.t('mail.link.subject', { org: name, connection }),
    lines: [
      texts.t('mail.link.asked', { org: name, email: to, connection }),
      texts.t('mail.link.validity', { connection, minutes }),
    ],
    call: { action: texts.t('mail.link.action', { connection }), link, after: texts.t('mail.link.after') },
  });
}

/** To the previous address after an address change: no link, only the news and what to do. */
export function addressChangedMail(words: Texts | MailFrame, org: Org, to: string, newAddress: string): Mail {
  const frame = frameOf(words);
  const { texts } = frame;
  const name = nameOf(frame, org);
  return render(frame, to, name, {
    subject: texts.t('mail.changed.subject', { org: name }),
    lines: [
      texts.t('mail.changed.text', { org: name, from: to, to: newAddress }),
      texts.t('mail.changed.warning'),
    ],
  });
}

/** An invitation: to be a user of `org` (its hosted pages), or a console member of it with a role. */
export function invitationMail(
  words: Texts | MailFrame,
  org: Org,
  to: string,
  link: string,
  days: number,
  consoleRole: 'owner' | 'member' | null,
): Mail {
  const frame = frameOf(words);
  const { texts } = frame;
  const name = nameOf(frame, org);
  const invited =
    consoleRole === null
      ? 'mail.invite.user'
      : consoleRole === 'owner'
        ? 'mail.invite.owner'
        : 'mail.invite.member';
  return render(frame, to, name, {
    subject: texts.t(consoleRole === null ? 'mail.invite.subject' : 'mail.invite.subject_console', {
      org: name,
    }),
    lines: [texts.t(invited, { org: name, email: to }), texts.t('mail.invite.validity', { days })],
    call: { action: texts.t('mail.invite.action'), link, after: texts.t('mail.invite.after') },
  });
}
