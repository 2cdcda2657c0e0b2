import { newSecret } from '../../crypto/random.js';
import { insertFederatedIdentity } from '../../storage/repos/connections.js';
import { claimEmailVerification, emailKey, findUserById } from '../../storage/repos/users.js';
import { recordUserUpdated } from '../audit/audit.js';
import { clock } from '../clock.js';
import { issuerOf } from '../issuers.js';
import { accountLinkMail, mailTexts } from '../mail/messages.js';
import { type Org, SYSTEM, type User } from '../types.js';
import { handOverAccount } from './account-handover.js';
import { linkDecision } from './account-linking.js';
import type { Connection } from './connections.js';
import type { FederationDeps } from './deps.js';
import { browserBindingHash, type HeldAccountLink, holdAccountLink } from './pending-requests.js';
import { refuse } from './refusal.js';
import type { UpstreamIdentity } from './upstream-identity.js';

/**
 * Proving an account before an upstream identity is linked to it (account-linking.ts `prove`; like
 * Keycloak's "confirm link existing account"): a person whose upstream vouched for an address that
 * a never-verified self-service account of the org has gets a one-time link mailed to it. The link
 * works once, for `ACCOUNT_LINK_TTL_MS`, and only in the browser that signed in upstream (its
 * binding cookie): following it proves the mailbox and that browser belong to one person. It then
 * links the identity, marks the address verified, and ends everything whoever typed the address in
 * at sign-up may hold: every session (and with them refresh tokens), the password, the second
 * factor and its recovery codes, the passkeys and the consents given to clients.
 *
 * Two links followed at once: only the first goes on (the address can be verified once); an
 * account verified or linked since a link was sent takes no more links that way (the person signs
 * in upstream again and is linked as a verified account is).
 */

/** As long as a password reset link: the person is at their desk, their mail a click away. */
export const ACCOUNT_LINK_TTL_MS = 30 * 60 * 1000;

const LINK_PREFIX = 'tal_';

export const LINK_CLOSED =
  'This link no longer works: the account changed since it was sent. Sign in again to get a new one.';

/**
 * Keeps the sign-in for `binding`'s browser under a new token; `send` mails the link to the user's
 * address (the page sends it once its answer is out).
 */
export async function offerAccountLink(
  deps: FederationDeps,
  org: Org,
  c: Connection,
  input: { identity: UpstreamIdentity; requestId: string | null; user: User; binding: string },
): Promise<{ minutes: number; send: () => Promise<void> }> {
  const token = newSecret(LINK_PREFIX);
  await holdAccountLink(
    deps,
    c.id,
    token,
    {
      identity: input.identity,
      requestId: input.requestId,
      link: { userId: input.user.id, sentTo: input.user.email },
      browser: browserBindingHash(input.binding),
    },
    ACCOUNT_LINK_TTL_MS,
  );
  const url = new URL(`sso/${c.id}/link`, issuerOf(deps.config, org));
  url.searchParams.set('token', token);
  const minutes = ACCOUNT_LINK_TTL_MS / 60_000;
  const words = await mailTexts(deps, org, input.user.locale);
  const mail = accountLinkMail(words, org, input.user.email, c.name, url.href, minutes);
  return { minutes, send: () => deps.mailer.send(mail) };
}

/**
 * A link followed in its browser (already taken, single use): links the identity to the user and
 * ends everything the account had, in one transaction. The user after, verified.
 */
export async function linkAfterProof(
  deps: FederationDeps,
  org: Org,
  c: Connection,
  held: HeldAccountLink,
): Promise<User> {
  return deps.unitOfWork.run(async (tx) => {
    const user = await findUserById(tx, held.link.userId);
    if (!user || user.orgId !== org.id || emailKey(user.email) !== emailKey(held.link.sentTo))
      return refuse('federation.link.closed', LINK_CLOSED);
    if (user.disabled)
      return refuse(
        'federation.user.disabled',
        'This account is disabled. Ask an administrator of the organization.',
        403,
      );
    const email = held.identity.email ?? held.link.sentTo;
    const decision = await linkDecision(tx, org, c, { ...held.identity, email }, user);
    if (decision.kind === 'refuse') return refuse('federation.link.refused', decision.message, 403);
    if (decision.kind !== 'prove') return refuse('federation.link.closed', LINK_CLOSED);
    const now = clock.now();
    if (!(await claimEmailVerification(tx, user.id, held.link.sentTo, now)))
      return refuse('federation.link.closed', LINK_CLOSED);
    const linked = await insertFederatedIdentity(tx, {
      connectionId: c.id,
      subject: held.identity.subject,
      userId: user.id,
      createdAt: now,
    });
    if (!linked)
      return refuse(
        'federation.sign_in.completed_elsewhere',
        'This sign-in was completed in another window. Start again.',
      );
    const after: User = { ...user, emailVerified: true, updatedAt: now };
    await recordUserUpdated(tx, user, after, SYSTEM);
    await handOverAccount(tx, org, user, now);
    return after;
  });
}
