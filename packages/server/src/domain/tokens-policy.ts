/** Lifetimes of what the service issues (DESIGN §5). */
export const ACCESS_TOKEN_TTL_S = 15 * 60;
/** ID tokens live as long as access tokens (a retired key's grace: token-lifetimes.ts). */
export const ID_TOKEN_TTL_S = ACCESS_TOKEN_TTL_S;

/** Authorization codes are single use and live 60 seconds (DESIGN §5). */
export const AUTHORIZATION_CODE_TTL_MS = 60 * 1000;
/** Used codes are remembered this long past expiry, so a late replay still revokes its session. */
export const USED_CODE_RETENTION_MS = 24 * 60 * 60 * 1000;
/** How long a person has to sign in and consent after GET /oauth/authorize. */
export const AUTHORIZATION_REQUEST_TTL_MS = 30 * 60 * 1000;
/** RFC 8628 device authorizations (DESIGN §20): the codes live 10 minutes; the device polls every 5 s. */
export const DEVICE_CODE_TTL_MS = 10 * 60 * 1000;
export const DEVICE_POLL_INTERVAL_S = 5;
/** A refresh token unused this long expires (idle timeout); every rotation starts a new one. */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** An OAuth session ends this long after sign-in, however often it is refreshed (absolute timeout). */
export const OAUTH_SESSION_TTL_MS = 90 * 24 * 60 * 60 * 1000;
/** The hosted pages' login cookie: a person signs in again after this long. */
export const BROWSER_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** The key of POST /profile/session opens the profile page once, within this time. */
export const PROFILE_KEY_TTL_MS = 5 * 60 * 1000;
/** After the key is redeemed, the profile page stays editable this long (a cookie scoped to /profile). */
export const PROFILE_PAGE_TTL_MS = 15 * 60 * 1000;

/** RFC 8176 method names and the `acr` values they reach (docs/sign-in.md lists them). */
export const AMR_PASSWORD = 'pwd';
export const ACR_PASSWORD = 'urn:tessera:acr:pwd';
/** A second factor: a TOTP code or a recovery code (both one-time passwords), and the level it reaches. */
export const AMR_OTP = 'otp';
export const ACR_MFA = 'urn:tessera:acr:mfa';
/**
 * A passkey (docs/passkeys.md): proof of a hardware-secured key (`hwk`) with the person present and
 * verified by the authenticator (`user`); the two together are two factors (`mfa`), so it reaches
 * ACR_MFA.
 */
export const AMR_HARDWARE_KEY = 'hwk';
export const AMR_USER_PRESENCE = 'user';
export const AMR_MULTIPLE_FACTORS = 'mfa';
/**
 * Through an enterprise connection (DESIGN §17): the org's own identity provider signed the person
 * in (RFC 8176 has no finer word for it), at a level of its own: how strong that was is the
 * upstream's to say.
 */
export const AMR_FEDERATED = 'fed';
export const ACR_FEDERATED = 'urn:tessera:acr:fed';
/** An owner signed in as a user (`act` present): a level of its own, never mistaken for the user's. */
export const ACR_IMPERSONATION = 'urn:tessera:acr:impersonation';

/** Between a correct password and the second factor: the code (or enrolment) must follow within this. */
export const SECOND_FACTOR_PENDING_TTL_MS = 10 * 60 * 1000;
/** An impersonation link opens once, within this time. */
export const IMPERSONATION_LINK_TTL_MS = 2 * 60 * 1000;
/** An impersonated session (and every token and refresh of it) ends this long after the link is opened. */
export const IMPERSONATION_SESSION_TTL_MS = 60 * 60 * 1000;
/** A passkey ceremony's challenge is answered once, within this (the browser's own timeout is 2 minutes). */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** How many passkeys one user may keep. */
export const MAX_PASSKEYS_PER_USER = 20;
