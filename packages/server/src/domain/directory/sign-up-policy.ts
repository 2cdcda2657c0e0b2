import { fail } from '../errors.js';
import type { Org, SignUpPolicy } from '../types.js';

/**
 * The sign-up policy of an org (DESIGN §16): who may create their own account on its hosted
 * pages. `open`: anyone; `invite_only`: only people an owner invited; `domains`: anyone whose
 * email address is at one of the org's listed domains (an invitation lets anyone in). The console
 * org never offers self sign-up: its people join by invitation.
 */

export const SIGN_UP_POLICIES: readonly SignUpPolicy[] = ['open', 'invite_only', 'domains'];

/** At most this many domains in `sign_up_domains`. */
export const MAX_SIGN_UP_DOMAINS = 50;

// Labels of letters, digits and inner hyphens, at least two of them; no trailing dot.
const DOMAIN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const DOMAIN_RULE = 'must be a domain name like example.com (no @, scheme or path)';

/** A domain as `sign_up_domains` stores it (lower case, trimmed), or null when it is not one. */
export function canonicalDomain(value: string): string | null {
  const domain = value.trim().toLowerCase();
  return DOMAIN.test(domain) ? domain : null;
}

/** The domain part of an email address, lower case. */
const domainOf = (email: string): string =>
  email
    .trim()
    .slice(email.trim().lastIndexOf('@') + 1)
    .toLowerCase();

/**
 * Whether `email` may create an account in `org`: the one rule the sign-up page, the sign-up
 * route and accepting an invitation all follow. `invited`: the person holds a valid invitation
 * of the org, which lets them in whatever the policy.
 *
 * @example
 *   if (!signUpAllowed(org, email, { invited: false })) fail('forbidden', signUpRefusal(org));
 */
export function signUpAllowed(org: Org, email: string, options: { invited: boolean }): boolean {
  if (options.invited) return true;
  if (org.isConsole) return false;
  switch (org.signUp) {
    case 'open':
      return true;
    case 'invite_only':
      return false;
    case 'domains':
      return org.signUpDomains.includes(domainOf(email));
  }
}

/** Whether the hosted login offers "Create an account": anyone may sign up, or some domains may. */
export const signUpOffered = (org: Org): boolean => !org.isConsole && org.signUp !== 'invite_only';

/** Why `signUpAllowed` refused someone without an invitation, in words for them. */
export function signUpRefusal(org: Org): string {
  if (org.isConsole || org.signUp !== 'domains') {
    return `Accounts for ${org.name} are created by invitation only. Ask the organization to invite you.`;
  }
  const listed = org.signUpDomains.map((d) => `@${d}`).join(', ');
  return `Only addresses at ${listed} can create an account here.`;
}

/**
 * A sign-up policy as it will be stored: its domains canonical and without duplicates; `domains`
 * needs at least one, the other policies keep none.
 */
export function checkSignUpPolicy(
  policy: SignUpPolicy,
  domains: readonly string[],
): Pick<Org, 'signUp' | 'signUpDomains'> {
  if (!SIGN_UP_POLICIES.includes(policy)) {
    fail('org.sign_up.invalid', `sign_up must be one of ${SIGN_UP_POLICIES.join(', ')}`);
  }
  const canonical: string[] = [];
  for (const value of domains) {
    const domain =
      canonicalDomain(value) ??
      fail('org.sign_up_domains.invalid', `sign_up_domains: "${value}" ${DOMAIN_RULE}`);
    if (!canonical.includes(domain)) canonical.push(domain);
  }
  if (canonical.length > MAX_SIGN_UP_DOMAINS) {
    fail('org.sign_up_domains.too_many', `sign_up_domains must hold at most ${MAX_SIGN_UP_DOMAINS} domains`);
  }
  if (policy === 'domains' && canonical.length === 0) {
    fail('org.sign_up_domains.missing', 'sign_up "domains" needs at least one domain in sign_up_domains');
  }
  return { signUp: policy, signUpDomains: policy === 'domains' ? canonical : [] };
}
