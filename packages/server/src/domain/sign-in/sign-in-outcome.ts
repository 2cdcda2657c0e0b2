import type { User } from '../types.js';
import type { AuthorizationAnswer } from './authorize/response-mode.js';
import type { BrowserSession, SignInMethod } from './browser-sessions.js';

/**
 * What a sign-in comes to (complete-authentication.ts, authorization-steps.ts decide it), for the
 * HTTP layer to render as it is:
 * - `answer`: back to the client, a redirect or the form_post page (the code or the error, `state`
 *   and `iss` in it already);
 * - `page`: a hosted page of the flow, kept in its authorization request (`requestId`, null for
 *   none): `login` (to sign in; or, signed in, the page that sends the answer), `consent`, or
 *   `device` (a device authorization's confirmation page, RFC 8628 §5.4; `requestId` is its id);
 * - `second-factor`: the password was right and a second step is due (`challenge` for an enrolled
 *   user, `enrol` where the org requires one): nothing is signed in yet; the step may be taken
 *   until `until`.
 */
export type SignInOutcome =
  | { kind: 'answer'; answer: AuthorizationAnswer }
  | { kind: 'page'; page: 'login' | 'consent' | 'device'; requestId: string | null }
  | {
      kind: 'second-factor';
      step: 'challenge' | 'enrol';
      userId: string;
      until: number;
      requestId: string | null;
    };

/**
 * A sign-in just made: the browser session, the secret of its cookie (only its hash is stored) and
 * how long the cookie lives, and the device token naming the person (null for an impersonation:
 * the owner's browser is not the user's device).
 */
export interface SignedIn {
  session: BrowserSession;
  secret: string;
  maxAgeMs: number;
  deviceToken: string | null;
}

/**
 * How the answer reaches the client:
 * - `response`: this response is the answer (a redirect, or the form_post page);
 * - `link`: the answer must be a URL a script navigates to (the passkey page): a form_post request
 *   goes through its login page, which, signed in now, sends it;
 * - `login-page`: another page comes first (the recovery codes after an enrolment), whose link to
 *   the request's login page goes on with it.
 */
export type AnswerChannel = 'response' | 'link' | 'login-page';

/** What a way of signing in proved: who, and how (`amr`, `acr`, an impersonating owner, audit data). */
export interface Authenticated {
  user: User;
  method: SignInMethod;
}

/** A completed authentication: the sign-in made (null when a second step is due first) and what comes next. */
export interface CompletedAuthentication {
  signedIn: SignedIn | null;
  outcome: SignInOutcome;
}
