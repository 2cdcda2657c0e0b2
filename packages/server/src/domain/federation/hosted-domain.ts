import type { Connection } from './connections.js';
import { asciiLower } from './email-domain.js';
import { refuse } from './refusal.js';
import type { UpstreamIdentity } from './upstream-identity.js';

/**
 * Google Workspace's hosted domain (docs/enterprise-sign-in.md, Google): Google signs in every
 * Google account, so a connection to `accounts.google.com` that names a `hosted_domain` admits
 * only ID tokens whose `hd` claim is that domain. Checked on every sign-in through the connection,
 * a linked person's too (someone who left the Workspace keeps their Google account, not their
 * `hd`). A connection without one checks nothing: its `domains` and JIT rules still apply.
 */
export function requireHostedDomain(c: Connection, identity: UpstreamIdentity): void {
  if (c.type !== 'oidc' || !c.oidc.hostedDomain) return;
  const hd = identity.hostedDomain === null ? null : asciiLower(identity.hostedDomain);
  if (hd !== null && hd === c.oidc.hostedDomain) return;
  refuse(
    'federation.hosted_domain.mismatch',
    `${c.name} signed you in with an account outside ${c.oidc.hostedDomain}. Sign in with your ${c.oidc.hostedDomain} account.`,
    403,
  );
}
