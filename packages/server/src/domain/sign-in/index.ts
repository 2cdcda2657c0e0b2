/**
 * The public face of domain/sign-in/: what the HTTP layer, the worker and the commands may use of
 * it. Everything else in the folder is the feature's own (the lint refuses a deeper import from
 * outside the domain).
 */
export { redeemAuthorizationCode } from './authorization-codes.js';
export { loadAuthorizationRequest, type PendingAuthorization } from './authorization-requests.js';
export { continueAuthorization, type Decision, decideConsent } from './authorization-steps.js';
export { authorizeRequest, pushAuthorizationRequest } from './authorize/authorize-request.js';
export { AUTHORIZE_PARAMETERS, type AuthorizeParams, type AuthorizeQuery } from './authorize/parameters.js';
export { CODE_CHALLENGE, PKCE_METHODS } from './authorize/pkce.js';
export { PROMPT_VALUES } from './authorize/prompt.js';
export { REQUEST_OBJECT_ALGORITHMS } from './authorize/request-object.js';
export { type AuthorizationAnswer, answerDestination, RESPONSE_MODES } from './authorize/response-mode.js';
export {
  type BrowserSession,
  FEDERATED_SIGN_IN,
  MFA_SIGN_IN,
  PASSWORD_SIGN_IN,
  resumeBrowserSession,
  type SignInMethod,
} from './browser-sessions.js';
export {
  type Authenticated,
  type CompletedAuthentication,
  completeAuthentication,
} from './complete-authentication.js';
export { scopesToShow } from './consents.js';
export { mintCsrfToken, newCsrfCookieValue, verifyCsrfToken } from './csrf-tokens.js';
export {
  decideDevice,
  deviceConfirmation,
  findByUserCode,
  type PendingDevice,
  redeemDeviceCode,
  startDeviceAuthorization,
} from './device-authorizations.js';
export { DEVICE_COOKIE_TTL_MS, deviceOfUser, trustedDevice } from './device-cookies.js';
export { IMPERSONATION_PATH, openImpersonation, startImpersonation } from './impersonation.js';
export { loginSucceeded, reserveLoginAttempt } from './login-throttle.js';
export {
  checkLogoutRequest,
  type FrontChannelFrame,
  frontChannelLogoutUrl,
  type LogoutParameters,
  postLogoutRedirect,
  signOut,
} from './logout.js';
export { signedInFor } from './next-step.js';
export {
  type AuthenticationResponseJSON,
  finishPasskeyRegistration,
  finishPasskeySignIn,
  listUserPasskeys,
  PASSKEY_NAME_MAX,
  passkeyName,
  passkeySignInMethod,
  type RegistrationResponseJSON,
  relyingPartyIsShared,
  removePasskey,
  startPasskeyRegistration,
  startPasskeySignIn,
} from './passkeys.js';
export { changePassword } from './password-change.js';
export { checkPassword } from './password-login.js';
export {
  isDeviceSignIn,
  loadPendingSignIn,
  loginHintOf,
  type PendingSignIn,
  pendingIdOf,
  resumePendingSignIn,
} from './pending-sign-in.js';
export { type ConsentResource, consentResources } from './resource-consent.js';
export {
  type CodeOutcome,
  confirmEnrolment,
  orgRequiresMfa,
  pendingEnrolment,
  removeSecondFactor,
  secondFactorStage,
  secondFactorStatus,
  userAwaitingSecondFactor,
  verifySecondFactor,
} from './second-factor.js';
export type { AnswerChannel, SignedIn, SignInOutcome } from './sign-in-outcome.js';
export { signUp } from './signup.js';
