import { newSecret, sha256 } from '../../crypto/random.js';
import type { Handle } from '../../storage/handle.js';
import {
  consumeMailToken,
  findLiveMailToken,
  insertMailToken,
  purgeMailTokens,
  retireMailTokens,
} from '../../storage/repos/mail-tokens.js';
import { emailKey, findUserById } from '../../storage/repos/users.js';
import { recordAudit } from '../audit/audit.js';
import { clock } from '../clock.js';
import { issuerOf } from '../issuers.js';
import type { MailLinkRecord, MailPurpose, Org, User } from '../types.js';
import type { MailDeps } from './deps.js';

export type { MailPurpose };

/**
 * The one-time links Tessera mails: a reset link lasts 30 minutes (DESIGN §12), a verification
 * link 24 hours (it may wait in an inbox overnight, and proves less than a reset does).
 */
export const MAIL_LINK_TTL_MS: Readonly<Record<MailPurpose, number>> = Object.freeze({
  reset: 30 * 60 * 1000,
  verify: 24 * 60 * 60 * 1000,
});

/** The hosted page each link opens (the token in its `token` query parameter). */
export const MAIL_LINK_PATHS: Readonly<Record<MailPurpose, string>> = Object.freeze({
  reset: '/password/reset',
  verify: '/email/verify',
});

const PREFIXES: Record<MailPurpose, string> = { reset: 'tpr_', verify: 'tev_' };

export interface IssuedLink {
  url: string;
  minutes: number;
}

/**
 * A new link for `purpose`, mailed to the user's current address: stored as its SHA-256, audited
 * (`mail_link.created`, never the token). Earlier live links of the same purpose stop working,
 * so only the latest mail counts.
 */
export async function issueMailLink(
  tx: Handle,
  deps: MailDeps,
  org: Org,
  user: User,
  purpose: MailPurpose,
): Promise<IssuedLink> {
  const now = clock.now();
  const token = newSecret(PREFIXES[purpose]);
  const expiresAt = now + MAIL_LINK_TTL_MS[purpose];
  await retireMailTokens(tx, user.id, purpose, now);
  await insertMailToken(tx, {
    tokenHash: sha256(token),
    orgId: org.id,
    userId: user.id,
    purpose,
    sentTo: user.email,
    createdAt: now,
    expiresAt,
    usedAt: null,
  });
  await purgeMailTokens(tx, now);
  await recordAudit(tx, {
    orgId: org.id,
    entity: 'mail_link',
    verb: 'created',
    actor: { kind: 'system' },
    at: now,
    data: { userId: user.id, purpose, sentTo: user.email, expiresAt: new Date(expiresAt).toISOString() },
  });
  const url = new URL(MAIL_LINK_PATHS[purpose].slice(1), issuerOf(deps.config, org));
  url.searchParams.set('token', token);
  return { url: url.href, minutes: MAIL_LINK_TTL_MS[purpose] / 60_000 };
}

/** The user a stored link belongs to, while they are enabled and their address is still the one it went to. */
async function holder(
  db: Handle,
  stored: MailLinkRecord | null,
): Promise<{ stored: MailLinkRecord; user: User } | null> {
  if (stored === null) return null;
  const user = await findUserById(db, stored.userId);
  if (!user || user.disabled || emailKey(user.email) !== emailKey(stored.sentTo)) return null;
  return { stored, user };
}

/** A live link's user, without using the link (what GET shows: link scanners must not spend it). */
export async function peekMailLink(deps: MailDeps, org: Org, purpose: MailPurpose, token: string) {
  if (token.length > 200) return null;
  return holder(deps.store, await findLiveMailToken(deps.store, org.id, purpose, sha256(token), clock.now()));
}

/** Uses a live link, once, in `tx`: the stored link and its user, or null (unknown, used, expired, address changed). */
export async function consumeMailLink(
  tx: Handle,
  org: Org,
  purpose: MailPurpose,
  token: string,
  now: number,
) {
  if (token.length > 200) return null;
  return holder(tx, await consumeMailToken(tx, org.id, purpose, sha256(token), now));
}
