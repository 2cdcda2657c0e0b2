import type { SignInDeps } from '../sign-in/deps.js';
import type { Mailer } from './mailer.js';

/**
 * What domain/mail/ needs from the runtime: what the features below it need and its own
 * services. Its functions take this (or less); a caller holding more passes it as is.
 */
export interface MailDeps extends SignInDeps {
  /** Where reset and verification mails go: SMTP, the development log, or nowhere (src/mail/). */
  readonly mailer: Mailer;
}
