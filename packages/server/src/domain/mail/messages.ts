import { escapeHtml } from '../escape-html.js';
import type { Org } from '../types.js';
import type { Mail } from './mailer.js';

/**
 * The mails Tessera sends: a subject naming the org, a plain-text body and an HTML body saying the
 * same. Every value put into the HTML is escaped (escape-html.ts); the link is the only call to action.
 */

interface Message {
  subject: string;
  lines: string[];
  action: string;
  link: string;
  after: string;
}

function render(to: string, orgName: string, m: Message): Mail {
  const text = [...m.lines, '', `${m.action}:`, m.link, '', m.after, '', `— ${orgName}`, ''].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(m.subject)}</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d2330;line-height:1.5">
${m.lines.map((line) => `<p>${e(line)}</p>`).join('\n')}
<p><a href="${e(m.link)}" style="display:inline-block;padding:.6rem 1rem;background:#2f5bea;color:#fff;border-radius:8px;text-decoration:none;font-weight:600">${e(m.action)}</a></p>
<p style="color:#5b6475;font-size:.9rem">If the button does not work, copy this address into your browser:<br>${e(m.link)}</p>
<p style="color:#5b6475;font-size:.9rem">${e(m.after)}</p>
<p style="color:#5b6475;font-size:.9rem">— ${e(orgName)}</p>
</body></html>
`;
  return { to, subject: m.subject, text, html };
}

const duration = (minutes: number) =>
  minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? '' : 's'}` : `${minutes} minutes`;

/** The password reset mail: a one-time link, valid for `minutes`. */
export function passwordResetMail(org: Org, to: string, link: string, minutes: number): Mail {
  return render(to, org.name, {
    subject: `Reset your ${org.name} password`,
    lines: [
      `Someone (hopefully you) asked to reset the password of your ${org.name} account, ${to}.`,
      `The link below works once, for ${duration(minutes)}. Setting a new password signs you out everywhere.`,
    ],
    action: 'Choose a new password',
    link,
    after: 'If you did not ask for this, ignore this mail: your password stays as it is.',
  });
}

/** The address verification mail: a one-time link, valid for `minutes`. */
export function verificationMail(org: Org, to: string, link: string, minutes: number): Mail {
  return render(to, org.name, {
    subject: `Confirm your email address for ${org.name}`,
    lines: [
      `Please confirm that ${to} is the address of your ${org.name} account.`,
      `The link below works once, for ${duration(minutes)}.`,
    ],
    action: 'Confirm this address',
    link,
    after: 'If you did not create an account or change your address, ignore this mail.',
  });
}

/**
 * Proving an account before an enterprise sign-in is linked to it (federation/account-link-proofs.ts):
 * a one-time link, valid for `minutes`, that works in the browser that signed in.
 */
export function accountLinkMail(
  org: Org,
  to: string,
  connectionName: string,
  link: string,
  minutes: number,
): Mail {
  return render(to, org.name, {
    subject: `Link your ${org.name} account to ${connectionName}`,
    lines: [
      `Someone (hopefully you) signed in with ${connectionName} as ${to}. An account for this address already exists at ${org.name}, but its address was never confirmed.`,
      `The link below links that account to ${connectionName}. It works once, for ${duration(minutes)}, in the browser where you signed in. Linking signs the account out everywhere and removes its password, passkeys and second factor: from then on you sign in with ${connectionName}.`,
    ],
    action: `Link to ${connectionName}`,
    link,
    after: 'If you did not sign in, ignore this mail: nothing changes.',
  });
}

/** To the previous address after an address change: no link, only the news and what to do. */
export function addressChangedMail(org: Org, to: string, newAddress: string): Mail {
  const subject = `Your ${org.name} email address was changed`;
  const lines = [
    `The address of your ${org.name} account was changed from ${to} to ${newAddress}.`,
    'If you did not do this, contact the organization right away: someone may have your password.',
  ];
  const text = [...lines, '', `— ${org.name}`, ''].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d2330;line-height:1.5">
${lines.map((line) => `<p>${e(line)}</p>`).join('\n')}
<p style="color:#5b6475;font-size:.9rem">— ${e(org.name)}</p>
</body></html>
`;
  return { to, subject, text, html };
}

/** An invitation: to be a user of `org` (its hosted pages), or a console member of it with a role. */
export function invitationMail(
  org: Org,
  to: string,
  link: string,
  days: number,
  consoleRole: 'owner' | 'member' | null,
): Mail {
  const what =
    consoleRole === null
      ? `to ${org.name}`
      : `to manage ${org.name} in the Tessera console, as ${consoleRole === 'owner' ? 'an owner' : 'a member'}`;
  return render(to, org.name, {
    subject:
      consoleRole === null ? `You are invited to ${org.name}` : `You are invited to manage ${org.name}`,
    lines: [
      `You (${to}) are invited ${what}.`,
      `The link below works once, for ${days} days. With an account already, you sign in to accept; otherwise you choose a name and a password.`,
    ],
    action: 'Accept the invitation',
    link,
    after: 'If you did not expect this, ignore this mail: nothing happens without you.',
  });
}
