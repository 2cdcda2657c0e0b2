import type { ErrorSituation } from '../errors.js';

/**
 * A federated sign-in that cannot go on: the upstream is away or answered something this service
 * does not accept, or the person may not sign in here. `message` is shown to the person on the
 * login page (never a secret, never the upstream's raw answer); `status` is the page's; `situation`
 * its stable code (domain/error-codes.ts), sent in the page's header.
 */
export class FederationRefused extends Error {
  override name = 'FederationRefused';
  constructor(
    readonly situation: ErrorSituation,
    message: string,
    readonly status: 400 | 403 | 502 | 503,
  ) {
    super(message);
  }
}

export const refuse = (
  situation: ErrorSituation,
  message: string,
  status: 400 | 403 | 502 | 503 = 400,
): never => {
  throw new FederationRefused(situation, message, status);
};
