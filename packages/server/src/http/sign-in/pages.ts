import { profilePage, profileSave } from '../account/profile.js';
import { profileEmail, profilePassword } from '../account/profile-credentials.js';
import { profilePasskeyRemove, profilePasskeysPage } from '../account/profile-passkey-pages.js';
import { profileSecondFactorChange, profileSecondFactorPage } from '../account/profile-second-factor.js';
import { consent, consentPage } from './consent.js';
import { deviceCode, deviceConfirm, devicePage } from './device.js';
import { verifyEmail, verifyEmailPage } from './email-verification.js';
import { federationStart, oidcCallback, samlAcs, samlContinue } from './federation.js';
import { accountLink, accountLinkPage } from './federation-link.js';
import type { HostedPage } from './hosted-page.js';
import { impersonationPage } from './impersonation.js';
import { invitationAccept, invitationPage } from './invitation.js';
import { login, loginPage } from './login.js';
import { forgotPage, forgotSend, resetPage, resetPasswordPage } from './password-reset.js';
import { challenge, challengePage, enrol, enrolPage } from './second-factor.js';
import { signup, signupPage } from './signup.js';
import { signupConfirm, signupConfirmPage } from './signup-confirm.js';

/**
 * Every hosted page (the forms a browser shows and posts), each declared once with its handler
 * (hosted-page.ts): registered from this list (register-pages.ts) and nowhere else. They are not
 * API operations and not in /openapi.json; the pages that are operations (/oauth/authorize,
 * /oauth/logout) and what the pages' scripts call as JSON are declared in http/declarations.ts.
 */
export const PAGES: readonly HostedPage[] = [
  loginPage,
  login,
  challengePage,
  challenge,
  enrolPage,
  enrol,
  impersonationPage,
  signupPage,
  signup,
  signupConfirmPage,
  signupConfirm,
  consentPage,
  consent,
  devicePage,
  deviceCode,
  deviceConfirm,
  forgotPage,
  forgotSend,
  resetPage,
  resetPasswordPage,
  verifyEmailPage,
  verifyEmail,
  invitationPage,
  invitationAccept,
  federationStart,
  oidcCallback,
  samlAcs,
  samlContinue,
  accountLinkPage,
  accountLink,
  profilePage,
  profileSave,
  profileSecondFactorPage,
  profileSecondFactorChange,
  profilePassword,
  profileEmail,
  profilePasskeysPage,
  profilePasskeyRemove,
];
