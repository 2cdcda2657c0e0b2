import type { Connection } from './connections.js';
import { emailDomain } from './email-domain.js';

/**
 * Where a connection may create users on first sign-in (JIT, DESIGN §17): at an address in one of
 * its own `domains`; with `jit_any_domain`, at any other address too, except in a domain another
 * connection of the org claims (that domain's people arrive through their own connection, and an
 * upstream must not make accounts for them first). Without `jit_any_domain`, a connection with no
 * domains creates nobody. An address whose domain is not ASCII (email-domain.ts) is never created.
 */
export function jitAllowed(c: Connection, email: string, connections: readonly Connection[]): boolean {
  const domain = emailDomain(email);
  // Not ASCII: in no connection's domains, and its lower case may be another address's.
  if (domain === null) return false;
  if (c.domains.includes(domain)) return true;
  if (!c.jitAnyDomain) return false;
  return !connections.some((other) => other.id !== c.id && other.domains.includes(domain));
}
