/**
 * The public face of domain/mail/: what the HTTP layer, the worker and the commands may use of
 * it. Everything else in the folder is the feature's own (the lint refuses a deeper import from
 * outside the domain).
 */
export { changeEmail, mailAddressChanged, mailVerification, verifyAddress } from './address-verification.js';
export { MAIL_LINK_TTL_MS, peekMailLink } from './mail-links.js';
export { reserveMail } from './mail-throttle.js';
export type { Mailer } from './mailer.js';
export { mailPasswordReset, resetPassword } from './password-reset.js';
export {
  checkSignUpRequest,
  confirmSignUp,
  mailSignUpLink,
  peekSignUp,
  SIGN_UP_LINK_MINUTES,
  SIGN_UP_LINK_PATH,
} from './sign-up-links.js';
