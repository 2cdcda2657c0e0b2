import nodemailer from 'nodemailer';
import type { Config } from '../config/config.js';
import type { Mail, Mailer } from '../domain/mail/mailer.js';
import type { Logger } from '../observability/logger.js';

/**
 * The Mailer port's implementations (domain/mail/mailer.ts), chosen once at start-up:
 *
 * - TESSERA_SMTP_URL set: SMTP through nodemailer (`smtps://` TLS from the start, `smtp://`
 *   STARTTLS when the server offers it), one connection per mail, with time limits so a dead
 *   server cannot hold the mail queue for minutes.
 * - none set and TESSERA_URL on loopback (development): each mail is one JSON log line with
 *   `to`, `subject` and `text` — the link readable where the developer looks.
 * - none set otherwise: nothing is sent; start-up warns once and each mail logs a warning without
 *   its address or body. The pages answer exactly as they would with mail.
 */
export interface MailSetup {
  mailer: Mailer;
  /** A start-up warning, when mail is not delivered. */
  warning: string | null;
}

export const NO_SMTP_WARNING =
  'TESSERA_SMTP_URL is not set: password reset and address verification mails are not sent';

/** SMTP: a refused or failed send is logged (kind and SMTP code, never the mail) and not retried. */
export function smtpMailer(smtpUrl: string, from: string, log: Pick<Logger, 'warn'>): Mailer {
  const transport = nodemailer.createTransport(
    {
      url: smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    },
    { from },
  );
  return {
    async send(mail: Mail) {
      try {
        await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      } catch (error) {
        log.warn({ err: mailFailure(error), subject: mail.subject }, 'a mail could not be sent');
      }
    },
  };
}

/** Development: the mail as one JSON line of the process's log (its link included, by design). */
export function logMailer(log: Pick<Logger, 'info'>): Mailer {
  return {
    async send(mail: Mail) {
      log.info(
        { to: mail.to, subject: mail.subject, text: mail.text },
        'mail (development: written here, not sent)',
      );
    },
  };
}

/** No transport: each mail is dropped with a warning that names neither its address nor its body. */
export function unsentMailer(warn: (line: string) => void): Mailer {
  return {
    async send() {
      warn('a mail was not sent: TESSERA_SMTP_URL is not set');
    },
  };
}

/** The mailer `config` asks for, and the warning to log at start-up when mail goes nowhere. */
export function mailerFor(config: Config, log: Pick<Logger, 'info' | 'warn'>): MailSetup {
  if (config.smtpUrl !== null)
    return { mailer: smtpMailer(config.smtpUrl, config.mailFrom, log), warning: null };
  if (config.loopback) return { mailer: logMailer(log), warning: null };
  return { mailer: unsentMailer((line) => log.warn(line)), warning: NO_SMTP_WARNING };
}

/** What a failed send may show in the log: its kind and SMTP code, never the mail or a link. */
export function mailFailure(error: unknown): Record<string, unknown> {
  const e = error as { name?: unknown; code?: unknown; responseCode?: unknown; message?: unknown };
  const message =
    typeof e.message === 'string' ? e.message.replace(/token=[^\s&"'<>]+/g, 'token=[redacted]') : '';
  return {
    type: typeof e.name === 'string' ? e.name : 'Error',
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(typeof e.responseCode === 'number' ? { responseCode: e.responseCode } : {}),
    message: message.slice(0, 300),
  };
}
