import type { Handle } from '../../storage/handle.js';
import {
  findFederatedUserId,
  insertFederatedIdentity,
  listConnections,
} from '../../storage/repos/connections.js';
import { findUserByEmail, findUserById } from '../../storage/repos/users.js';
import { clock } from '../clock.js';
import { insertUserWithTenant, prepareUser } from '../directory/users.js';
import { foldsOntoAscii } from '../directory/validate.js';
import { type Org, SYSTEM, type User } from '../types.js';
import { handOverAccount } from './account-handover.js';
import { linkDecision, MADE_BY_ANOTHER, madeByAnotherConnection } from './account-linking.js';
import type { Connection } from './connections.js';
import { grantDefaultRoles } from './default-roles.js';
import type { FederationDeps } from './deps.js';
import { requireHostedDomain } from './hosted-domain.js';
import { jitAllowed } from './jit-domains.js';
import { refuse } from './refusal.js';
import type { UpstreamIdentity } from './upstream-identity.js';

/** Who the person is here, or the user whose account they must prove first (account-link-proofs.ts). */
export type FederatedOutcome = { user: User } | { prove: User };

/**
 * Who a person signing in through a connection is here (DESIGN §17):
 * 0. with a hosted domain set (Google Workspace), only ID tokens naming it (hosted-domain.ts);
 * 1. the user linked to (connection, subject), if any, unless another connection that still
 *    exists made that user (account-linking.ts);
 * 2. else a user of the org with the same address, as account-linking.ts decides: linked now
 *    (their roles stay as they are), proved first, or refused;
 * 3. else, with `jit` and an address the connection may create (jit-domains.ts), a new user (no
 *    password) holding the connection's default roles, linked;
 * 4. else refused: no account here.
 */
export async function federatedUser(
  deps: FederationDeps,
  org: Org,
  c: Connection,
  identity: UpstreamIdentity,
): Promise<FederatedOutcome> {
  requireHostedDomain(c, identity);
  const linkedId = await findFederatedUserId(deps.store, c.id, identity.subject);
  if (linkedId !== null) {
    const user = await findUserById(deps.store, linkedId);
    if (user && user.orgId === org.id) {
      if (await madeByAnotherConnection(deps.store, org, c, user.id))
        return refuse('federation.user.made_by_another', MADE_BY_ANOTHER(c, user.email), 403);
      return { user: usable(user) };
    }
  }
  const email =
    identity.email ??
    refuse(
      'federation.email.missing',
      `${c.name} did not share your email address, so you cannot sign in here.`,
      403,
    );
  if (foldsOntoAscii(email))
    refuse(
      'federation.email.confusable',
      `${c.name} vouched for ${email}, which reads as another address here. Use your usual address.`,
      403,
    );
  const existing = await findUserByEmail(deps.store, org.id, email);
  if (existing) {
    const decision = await linkDecision(deps.store, org, c, { ...identity, email }, existing);
    if (decision.kind === 'refuse') return refuse('federation.link.refused', decision.message, 403);
    if (decision.kind === 'prove') return { prove: usable(existing) };
    const user = usable(existing);
    await deps.unitOfWork.run(async (tx) => {
      await link(tx, c, identity.subject, user.id);
      if (decision.handOver) await handOverAccount(tx, org, user, clock.now());
    });
    return { user };
  }
  if (!c.jit) {
    return refuse(
      'federation.user.unknown',
      `There is no account for ${email} in ${org.name}. Ask an administrator of ${org.name} to add you.`,
      403,
    );
  }
  if (!jitAllowed(c, email, await listConnections(deps.store, org.id))) {
    return refuse(
      'federation.user.foreign_domain',
      `${c.name} cannot create an account for ${email} in ${org.name}: it creates accounts for its own domains only. Ask an administrator of ${org.name} to add you.`,
      403,
    );
  }
  return { user: await createFederatedUser(deps, org, c, { ...identity, email }) };
}

function usable(user: User): User {
  if (user.disabled)
    refuse(
      'federation.user.disabled',
      'This account is disabled. Ask an administrator of the organization.',
      403,
    );
  return user;
}

async function link(db: Handle, c: Connection, subject: string, userId: string) {
  const linked = await insertFederatedIdentity(db, {
    connectionId: c.id,
    subject,
    userId,
    createdAt: clock.now(),
  });
  if (!linked)
    refuse(
      'federation.sign_in.completed_elsewhere',
      'This sign-in was completed in another window. Start again.',
    );
}

/**
 * The user made on first sign-in (`jit`), with their personal tenant and the connection's default
 * roles, linked, in one transaction.
 */
async function createFederatedUser(
  deps: FederationDeps,
  org: Org,
  c: Connection,
  identity: UpstreamIdentity & { email: string },
): Promise<User> {
  let prepared: Awaited<ReturnType<typeof prepareUser>>;
  try {
    prepared = await prepareUser({ email: identity.email, password: null });
  } catch {
    return refuse(
      'federation.email.unusable',
      `${c.name} gave an address this service cannot use (${identity.email}).`,
      403,
    );
  }
  const names = await prepareUser({
    email: identity.email,
    password: null,
    firstName: identity.firstName,
    lastName: identity.lastName,
  }).catch(() => prepared);
  return deps.unitOfWork.run(async (tx) => {
    const { user } = await insertUserWithTenant(
      tx,
      org.id,
      {
        ...names,
        input: {
          ...names.input,
          provider: c.type,
          emailVerified: identity.emailVerified,
          origin: { connectionId: c.id },
        },
      },
      SYSTEM,
    );
    const linked = await insertFederatedIdentity(tx, {
      connectionId: c.id,
      subject: identity.subject,
      userId: user.id,
      createdAt: user.createdAt,
    });
    if (!linked)
      refuse(
        'federation.sign_in.completed_elsewhere',
        'This sign-in was completed in another window. Start again.',
      );
    await grantDefaultRoles(tx, org, c.defaultRoles, user);
    return user;
  });
}
