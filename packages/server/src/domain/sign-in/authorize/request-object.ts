import {
  checkJwt,
  checkUnsecuredJwt,
  type JWTPayload,
  type JwtExpectations,
  type JwtOutcome,
  unverifiedClaims,
  unverifiedHeader,
} from '../../../crypto/verify-jwt.js';
import { CLIENT_JWS_ALGORITHMS } from '../../client-jws-algorithms.js';
import { clock } from '../../clock.js';
import { REQUEST_OBJECT_SIGNING_ALGS } from '../../directory/request-object-signing-alg.js';
import { type ErrorSituation, fail, ServiceError } from '../../errors.js';
import { issuerOf } from '../../issuers.js';
import { isStorableText } from '../../storable-text.js';
import { clientKeys } from '../../tokens/client-keys.js';
import type { Client, Org } from '../../types.js';
import type { SignInDeps } from '../deps.js';
import { AUTHORIZE_PARAMETERS, type AuthorizeParams, type AuthorizeQuery } from './parameters.js';

/**
 * Request objects passed by value (`request`, RFC 9101; OIDC Core §6.1): the authorization request
 * as a JWT. Signed with a key the client registered (`jwks` or `jwks_uri`, the keys its
 * `private_key_jwt` assertions are checked with), by any of the client signing algorithms unless
 * the client registered one (`request_object_signing_alg`); unsigned (`none`) only when it
 * registered `none`. Discovery lists them all.
 */
export const REQUEST_OBJECT_ALGORITHMS = REQUEST_OBJECT_SIGNING_ALGS;

/** Clock skew allowed on the object's `exp`, `nbf` and `iat` (when it has them). */
const CLOCK_SKEW_S = 60;

/** What the refusal of a request object may take from it: only how the answer travels. */
export interface RefusalEcho {
  state?: string;
  responseMode?: string;
}

/**
 * The request with its object opened: its parameters, the verified object's superseding the
 * query's (OIDC Core §6.3.3); or why the object is refused. A refused unsigned object lends its
 * `state` and `response_mode` to the refusal (OIDC Core §6.1: they supersede the query's), nothing
 * else: the error goes to the redirect URI the query names, checked against the client's
 * registration like any other.
 */
export type OpenedRequest =
  | { ok: true; query: AuthorizeQuery }
  | { ok: false; error: ServiceError; echo: RefusalEcho };

const refuse = (situation: ErrorSituation, detail: string, echo: RefusalEcho = {}): OpenedRequest => ({
  ok: false,
  error: new ServiceError(situation, detail),
  echo,
});

/**
 * An object member written back out as JSON. JSON.stringify recurses: an object nested a few
 * thousand deep (a 64 kB form holds ten thousand levels) overflows the stack, which must be the
 * object's refusal, not a 500. Anyone may write an object for a client registered for `none`.
 */
function objectText(name: string, value: object): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return fail('authorize.request_object.too_deep', `${name} in the request object is nested too deeply`);
  }
}

/** A claim's value as a request parameter: text as given, numbers and booleans written out, objects as JSON. */
function parameterText(name: string, value: unknown): string {
  let text: string | undefined;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
  else if (typeof value === 'object' && value !== null && !Array.isArray(value))
    text = objectText(name, value);
  if (text === undefined)
    return fail('authorize.request_object.not_string', `${name} in the request object must be a string`);
  if (!isStorableText(text))
    fail(
      'authorize.request_object.bad_characters',
      `${name} must not contain a NUL character or an unpaired surrogate`,
    );
  return text;
}

/** The resources an object names (RFC 8707 §2 in a JWT: one string or an array of them). */
function objectResources(value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value];
  return values.map((v) => parameterText('resource', v)).filter((v) => v !== '');
}

/**
 * The parameters a verified object carries, and the query's with them superseded. An object may
 * not name another client, another response type, or carry `request` or `request_uri` itself.
 */
function mergedQuery(query: AuthorizeQuery, claims: JWTPayload): AuthorizeQuery {
  if ('request' in claims || 'request_uri' in claims)
    fail('authorize.request_object.nested', 'a request object must not hold request or request_uri');
  const own: AuthorizeParams = {};
  let resources: string[] | null = null;
  for (const name of AUTHORIZE_PARAMETERS) {
    const value = claims[name];
    if (value === undefined || value === null) continue;
    if (name === 'resource') resources = objectResources(value);
    else {
      const text = parameterText(name, value);
      if (text !== '') own[name] = text;
    }
  }
  if (own.client_id !== undefined && own.client_id !== query.params.client_id)
    fail('authorize.request_object.client_mismatch', 'the request object names another client_id');
  const asked = query.params.response_type;
  if (own.response_type !== undefined && asked !== undefined && own.response_type !== asked)
    fail('authorize.request_object.response_type_mismatch', 'the request object names another response_type');
  const params: AuthorizeParams = { ...query.params, ...own };
  delete params.request;
  if (resources !== null) {
    if (resources[0] === undefined) delete params.resource;
    else params.resource = resources[0];
  }
  const superseded = new Set<string>(Object.keys(own));
  if (resources !== null) superseded.add('resource');
  return {
    params,
    repeated: query.repeated.filter((name) => !superseded.has(name)),
    resources: resources ?? query.resources,
  };
}

/** What an unsigned object may lend its refusal: `state` and `response_mode`, when they are text. */
function echoOf(token: string): RefusalEcho {
  const claims = unverifiedClaims(token);
  const text = (v: unknown) => (typeof v === 'string' && v !== '' && isStorableText(v) ? v : undefined);
  const state = text(claims?.state);
  const responseMode = text(claims?.response_mode);
  return {
    ...(state === undefined ? {} : { state }),
    ...(responseMode === undefined ? {} : { responseMode }),
  };
}

/** The one algorithm `client`'s request objects must use, else any signed one: never `none` unless registered. */
const acceptedAlgorithms = (client: Client): readonly string[] =>
  client.requestObjectSigningAlg === undefined ? CLIENT_JWS_ALGORITHMS : [client.requestObjectSigningAlg];

/**
 * The object checked as OIDC Core §6.1 and RFC 9101 §6.3 ask, whatever its algorithm: `iss` the
 * client, `aud` this issuer, `exp` and `nbf` when present; signed ones with the client's keys.
 */
async function verified(
  deps: SignInDeps,
  org: Org,
  client: Client,
  token: string,
  alg: string,
): Promise<JwtOutcome | 'no keys'> {
  const expected: JwtExpectations = {
    algorithms: [alg],
    issuer: client.id,
    audience: [issuerOf(deps.config, org)],
    requiredClaims: [],
    toleranceSeconds: CLOCK_SKEW_S,
    now: clock.now(),
  };
  if (alg === 'none') return checkUnsecuredJwt(token, expected);
  const keys = await clientKeys(deps, client, token);
  return keys === null ? 'no keys' : checkJwt(token, keys, expected);
}

/**
 * Opens the `request` of an authorization request made by `client` (named by the query's
 * `client_id`, which OAuth requires outside the object too). Checked (verified()) in an algorithm
 * the client's registration accepts, its values supersede the query's. Unsigned without a
 * registration for it: `request_not_supported`. Encrypted, malformed, in another algorithm or not
 * checking out: `invalid_request_object`.
 */
export async function openRequestObject(
  deps: SignInDeps,
  org: Org,
  client: Client,
  query: AuthorizeQuery,
): Promise<OpenedRequest> {
  const token = query.params.request;
  if (token === undefined) return { ok: true, query };
  if (query.params.request_uri !== undefined)
    return refuse(
      'authorize.request_object.with_request_uri',
      'request and request_uri cannot both be given',
    );
  const parts = token.split('.').length;
  if (parts === 5)
    return refuse('authorize.request_object.encrypted', 'encrypted request objects are not supported');
  const header = parts === 3 ? unverifiedHeader(token) : null;
  if (header === null || typeof header.alg !== 'string')
    return refuse('authorize.request_object.not_jwt', 'request is not a JWT');
  const accepted = acceptedAlgorithms(client);
  if (!accepted.includes(header.alg)) {
    if (header.alg === 'none') {
      return refuse(
        'authorize.request_object.unsigned',
        'unsigned request objects (alg none) are accepted only from an application registered for them (request_object_signing_alg none)',
        echoOf(token),
      );
    }
    return refuse(
      'authorize.request_object.wrong_alg',
      `request objects of this application must use ${accepted.join(', ')}`,
    );
  }
  const outcome = await verified(deps, org, client, token, header.alg);
  if (outcome === 'no keys')
    return refuse(
      'authorize.request_object.no_keys',
      'this application has no registered keys to verify a request object with',
    );
  if (!outcome.ok) {
    return outcome.expired
      ? refuse('authorize.request_object.expired', 'the request object has expired')
      : refuse(
          'authorize.request_object.unverified',
          'the request object does not verify: its signature, iss (the client_id) or aud (the issuer) is wrong',
        );
  }
  try {
    return { ok: true, query: mergedQuery(query, outcome.payload) };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return { ok: false, error, echo: {} };
  }
}
