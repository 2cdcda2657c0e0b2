import type { Connection } from './connections.js';
import { refuse } from './refusal.js';
import type { UpstreamIdentity } from './upstream-identity.js';

/**
 * The rule for what an upstream says about a person (OIDC `sub`, email and names; SAML NameID and
 * attributes): no control character — C0 (NUL included), DEL, C1 — and no unpaired surrogate in
 * any of it. Such text is never a person's id, address or name; a NUL or a lone surrogate cannot
 * even be stored in PostgreSQL (what was a 500 there), and the others would reach pages, logs and
 * the tokens other services read. The whole answer is refused with the login page's error, the
 * same on both databases: 502 for an OIDC upstream (it answered this server badly), 400 for a SAML
 * answer (the browser brought it, as other refused SAML answers).
 */

/** In unicode mode a well-formed surrogate pair is one code point, so only a lone half matches. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNFIT = /[\u0000-\u001f\u007f-\u009f\ud800-\udfff]/u;

const unfit = (value: unknown): boolean =>
  typeof value === 'string' ? UNFIT.test(value) : Array.isArray(value) && value.some(unfit);

/** `identity` as built from the upstream's answer, when none of its text breaks the rule above. */
export function checkedIdentity<T extends UpstreamIdentity>(
  c: Pick<Connection, 'name' | 'type'>,
  identity: T,
): T {
  if (Object.values(identity).some(unfit)) {
    refuse(
      'federation.claims.control_characters',
      `The answer from ${c.name} was refused: it contains control characters. Start again.`,
      c.type === 'oidc' ? 502 : 400,
    );
  }
  return identity;
}
