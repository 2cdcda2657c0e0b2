import { randomBytes } from 'node:crypto';
import { type CacheProvider, type Profile, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { rememberAssertionId } from '../../storage/repos/connections.js';
import { clock } from '../clock.js';
import type { ErrorSituation } from '../errors.js';
import type { Org } from '../types.js';
import { type Connection, claimsEmail, connectionUrls } from './connections.js';
import type { FederationDeps } from './deps.js';
import {
  browserBindingHash,
  FEDERATION_REQUEST_TTL_MS,
  type PendingFederation,
  peekFederation,
  rememberFederation,
  takeFederation,
} from './pending-requests.js';
import { refuse } from './refusal.js';
import { checkedIdentity } from './upstream-claims.js';
import type { UpstreamIdentity } from './upstream-identity.js';

type SamlConnection = Extract<Connection, { type: 'saml' }>;

const pem = (body: string) =>
  `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? body}\n-----END CERTIFICATE-----\n`;

/**
 * The `InResponseTo` store node-saml checks an answer against: the sign-ins this service sent,
 * kept (sealed) in the database so any node can take the answer. A look-up remembers what it
 * found, for the caller to go on with once the answer is accepted.
 */
class PendingRequests implements CacheProvider {
  found: PendingFederation | null = null;
  constructor(
    private readonly deps: FederationDeps,
    private readonly connectionId: string,
  ) {}
  async saveAsync(_key: string, value: string) {
    return { value, createdAt: clock.now() };
  }
  async getAsync(key: string) {
    const row = await peekFederation(this.deps, this.connectionId, key);
    // An answer already verified and waiting for its browser is no request sent upstream.
    if (row === null || row.pending.identity !== undefined) return null;
    this.found = row.pending;
    return new Date(row.createdAt).toISOString();
  }
  async removeAsync(key: string | null) {
    if (key !== null) await takeFederation(this.deps, this.connectionId, key);
    return key;
  }
}

/**
 * node-saml for one connection: this service is the SP (entity id: the metadata URL), the answer
 * must come to the ACS URL, signed assertions are required, and every answer must be to a request
 * this service sent (`InResponseTo`, always).
 */
function samlFor(
  deps: FederationDeps,
  org: Org,
  c: SamlConnection,
  cache: CacheProvider,
  requestId?: string,
) {
  const urls = connectionUrls(deps, org, c);
  return new SAML({
    issuer: urls.spEntityId as string,
    callbackUrl: urls.acsUrl as string,
    entryPoint: c.saml.ssoUrl,
    idpCert: c.saml.certificates.map(pem),
    idpIssuer: c.saml.entityId,
    audience: urls.spEntityId as string,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    identifierFormat: null,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: FEDERATION_REQUEST_TTL_MS,
    acceptedClockSkewMs: 0,
    cacheProvider: cache,
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  });
}

/** The SP metadata an owner hands to their IdP (entity id, ACS URL, HTTP-POST). */
export function spMetadata(deps: FederationDeps, org: Org, c: SamlConnection): string {
  return samlFor(deps, org, c, new PendingRequests(deps, c.id)).generateServiceProviderMetadata(null, null);
}

/**
 * Starts a sign-in at the IdP: an AuthnRequest (HTTP-Redirect) whose id is remembered, with the
 * hash of the browser's binding cookie (`binding`).
 */
export async function startSamlSignIn(
  deps: FederationDeps,
  org: Org,
  c: SamlConnection,
  start: { requestId: string | null; binding: string },
): Promise<string> {
  const id = `_${randomBytes(20).toString('hex')}`;
  await rememberFederation(deps, c.id, id, {
    requestId: start.requestId,
    browser: browserBindingHash(start.binding),
  });
  const saml = samlFor(deps, org, c, new PendingRequests(deps, c.id), id);
  try {
    return await saml.getAuthorizeUrlAsync('', undefined, {});
  } catch {
    return refuse(
      'federation.saml.request_failed',
      `The sign-in request for ${c.name} could not be made.`,
      502,
    );
  }
}

/**
 * Why node-saml refused an answer, in words for the person (its own message never reaches the page).
 * An assertion without a signature of its own in a signed Response is named apart: the IdP signs the
 * message only, which is a setting of the IdP's (the answer's markup only chooses the words).
 */
function reasonOf(message: string, samlResponse: string): string {
  if (message === 'Invalid signature' && !assertionSigned(samlResponse))
    return 'its assertion is not signed (only the whole response is): set the identity provider to sign the assertion';
  if (/signature/i.test(message)) return 'its signature does not check out';
  if (/audience/i.test(message)) return 'it was meant for another service';
  if (/expired|not yet valid|subject confirmation/i.test(message)) return 'it has expired';
  if (/InResponseTo/i.test(message))
    return 'it does not answer a sign-in started here, or it was already used';
  if (/issuer/i.test(message)) return 'it comes from another identity provider';
  return 'it is not a valid SAML response';
}

/** Whether the answer's assertion carries a signature element of its own. */
function assertionSigned(samlResponse: string): boolean {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  const assertion = /<(?:[\w-]+:)?Assertion\b[\s\S]*?<\/(?:[\w-]+:)?Assertion>/.exec(xml)?.[0] ?? '';
  return /<(?:[\w-]+:)?Signature\b/.test(assertion);
}

type Parsed = Record<string, unknown[] | Record<string, string> | undefined>;
const first = (v: unknown): Parsed | undefined => (Array.isArray(v) ? (v[0] as Parsed) : undefined);

/** The assertion's id, its confirmation recipients and when it stops being valid. */
function assertionFacts(profile: Profile) {
  const assertion = (profile.getAssertion?.() as { Assertion?: Parsed } | undefined)?.Assertion;
  const attrs = (assertion?.$ ?? {}) as Record<string, string>;
  const subject = first(assertion?.Subject);
  const recipients = ((subject?.SubjectConfirmation as unknown[] | undefined) ?? []).map((sc) => {
    const data = first((sc as Parsed).SubjectConfirmationData);
    return ((data?.$ ?? {}) as Record<string, string>).Recipient ?? null;
  });
  const conditions = first(assertion?.Conditions);
  const notOnOrAfter = ((conditions?.$ ?? {}) as Record<string, string>).NotOnOrAfter;
  return { id: attrs.ID ?? null, recipients, notOnOrAfter: notOnOrAfter ? Date.parse(notOnOrAfter) : NaN };
}

/**
 * The IdP's answer posted to the ACS: node-saml checks the signature (of the assertion, with the
 * connection's certificates), the audience, the validity window and `InResponseTo` (a request
 * sent here, unused, not expired); here the assertion's Issuer is checked to be the connection's
 * IdP entity id, the recipient and destination to be this ACS, the claims to be free of control
 * characters (upstream-claims.ts), and the assertion id is remembered so it is never accepted
 * twice. `browser` is the binding the request was sent with: the answer is only for that browser
 * (pending-requests.ts).
 */
export async function finishSamlSignIn(
  deps: FederationDeps,
  org: Org,
  c: SamlConnection,
  samlResponse: string,
): Promise<{ identity: UpstreamIdentity; requestId: string | null; browser: string | undefined }> {
  const refused = (situation: ErrorSituation, why: string) =>
    refuse(situation, `The answer from ${c.name} was refused: ${why}. Start again.`);
  if (samlResponse === '') return refused('federation.saml.response_empty', 'it is empty');
  const cache = new PendingRequests(deps, c.id);
  const acs = connectionUrls(deps, org, c).acsUrl as string;
  let profile: Profile | null;
  try {
    ({ profile } = await samlFor(deps, org, c, cache).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    }));
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    return refused('federation.saml.response_invalid', reasonOf(message, samlResponse));
  }
  if (!profile || cache.found === null)
    return refused('federation.saml.unsolicited', 'it does not answer a sign-in started here');
  // node-saml compares `idpIssuer` for logout messages only: the signed assertion's Issuer is compared here.
  if (profile.issuer !== c.saml.entityId)
    return refused('federation.saml.wrong_issuer', 'it comes from another identity provider');
  const facts = assertionFacts(profile);
  if (!facts.recipients.includes(acs))
    return refused('federation.saml.wrong_recipient', 'it was sent to another address');
  const destination = /<(?:[\w-]+:)?Response\b[^>]*\sDestination="([^"]*)"/.exec(
    profile.getSamlResponseXml?.() ?? '',
  );
  if (destination && destination[1] !== acs)
    return refused('federation.saml.wrong_recipient', 'it was sent to another address');
  if (facts.id === null) return refused('federation.saml.no_id', 'the assertion has no id');
  const now = clock.now();
  const expiresAt = Number.isFinite(facts.notOnOrAfter)
    ? Math.max(facts.notOnOrAfter, now)
    : now + FEDERATION_REQUEST_TTL_MS;
  const fresh = await rememberAssertionId(deps.store, {
    connectionId: c.id,
    assertionId: facts.id,
    expiresAt: expiresAt + 60_000,
  });
  if (!fresh) return refused('federation.saml.replayed', 'it was already used');
  const email =
    typeof profile.email === 'string'
      ? profile.email
      : /^[^@\s]+@[^@\s]+$/.test(profile.nameID)
        ? profile.nameID
        : null;
  const attribute = (name: string) => {
    const v = profile?.[name];
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
  };
  return {
    requestId: cache.found.requestId,
    browser: cache.found.browser,
    identity: checkedIdentity(c, {
      subject: profile.nameID,
      email,
      // SAML has no email_verified: the org's IdP vouches for addresses in the domains the org claims.
      emailVerified: email !== null && claimsEmail(c, email),
      hostedDomain: null,
      firstName:
        attribute('firstName') ??
        attribute('givenName') ??
        attribute('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname'),
      lastName:
        attribute('lastName') ??
        attribute('surname') ??
        attribute('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname'),
    }),
  };
}
