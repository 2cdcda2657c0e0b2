import type { Handle } from '../../storage/handle.js';
import { findRefreshToken, retireRefreshToken } from '../../storage/repos/refresh-tokens.js';
import type { RefreshToken } from '../types.js';

/**
 * The reuse grace (TESSERA_REFRESH_REUSE_GRACE, 10 s by default): what presenting a refresh token
 * that was already used means.
 *
 * - `retry`: it is the token rotated last in its session, less than the grace ago, its successor is
 *   still unused, and its holder presents it: the same client, authenticated with its credentials
 *   (with the same DPoP key once tokens are bound to one, see `sameHolder`). The answer that carried the successor was lost (a node died after
 *   committing, a proxy answered 502, two tabs refreshed at once): the successor nobody has used is
 *   retired and the caller is given a new pair in the same session, as Okta's and Auth0's rotation
 *   grace periods allow. `nextHash` is recorded as the token's successor in its place.
 * - `retired`: the token itself is such a retired successor. Refused without revoking: presenting
 *   it proves nothing, the session's live token was handed to the retry.
 * - `refused`: within the grace but the retry cannot be granted (another retry or the successor's
 *   own use won the successor's row at the same moment, a public client presents it, or the token
 *   has expired since). Refused without revoking, and the successor keeps its chance.
 * - `reuse`: anything else, a replay (RFC 9700 §4.14.2): the caller revokes the session.
 */
export type ReuseVerdict = 'retry' | 'retired' | 'refused' | 'reuse';

/** Who presents the token: the authenticated client and its DPoP proof's key thumbprint (null: no proof). */
export interface Presenter {
  clientId: string;
  /**
   * Whether the client proved who it is (a confidential client's secret or key). A public client's
   * `client_id` is public: anyone holding the token can send it.
   */
  authenticated: boolean;
  dpopJkt: string | null;
}

export async function reuseVerdict(
  tx: Handle,
  known: RefreshToken,
  presenter: Presenter,
  now: number,
  graceMs: number,
  nextHash: string,
): Promise<ReuseVerdict> {
  if (known.retiredAt !== null) return 'retired';
  if (graceMs <= 0 || known.usedAt === null || known.rotatedTo === null) return 'reuse';
  if (now >= known.usedAt + graceMs) return 'reuse';
  // Expired since: nothing is issued, and the successor it names keeps its chance.
  if (known.expiresAt <= now) return 'refused';
  const successor = await findRefreshToken(tx, known.rotatedTo);
  if (successor === null) return 'reuse';
  // Retired by another retry of this very token, which committed after `known` was read (each
  // statement reads what is committed when it starts): that retry won the pair. Its commit also
  // named another successor, so a successor retired while `known` still names it is only this race.
  if (successor.retiredAt !== null) return 'refused';
  if (successor.usedAt !== null) return 'reuse';
  if (!sameHolder(known, presenter)) return 'refused';
  const retired = await retireRefreshToken(tx, known.tokenHash, known.rotatedTo, nextHash, now);
  return retired ? 'retry' : 'refused';
}

/**
 * Whether the presenter holds the token as the one it was issued to: the same client, and one that
 * authenticated. A public client proves nothing but its name, so its retry is indistinguishable from
 * a thief replaying a stolen token within the grace: were it granted, the thief would get a live pair
 * and the rightful holder's successor would be retired, refused without revoking, so the theft would
 * never be detected (RFC 9700 §4.14.2). It is refused as the loser of a race, and the successor stays
 * usable. A refresh token bound to a DPoP key (RFC 9449 §5) is held by whoever proves that key: a
 * public client's bound token may be retried with a proof of it.
 */
const sameHolder = (known: RefreshToken, presenter: Presenter): boolean =>
  known.clientId === presenter.clientId &&
  (known.dpopJkt === null ? presenter.authenticated : known.dpopJkt === presenter.dpopJkt);
