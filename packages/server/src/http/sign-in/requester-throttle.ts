import { clock } from '../../domain/clock.js';
import type { reserveMail } from '../../domain/mail/index.js';
import { rateLimitKey } from '../client-ip.js';
import type { Visit } from './hosted-page.js';

/** A throttle of the domain counting a requester's attempts about an address (reserveMail, reserveLoginAttempt). */
type RequesterThrottle = typeof reserveMail;

/**
 * Counts one attempt about `email` by this visit's requester against `throttle`: from their client
 * address, now, or from the account's own trusted browser (`deviceId`) where there is one.
 */
export const reserveForRequester = (
  throttle: RequesterThrottle,
  { ctx, org, request }: Pick<Visit, 'ctx' | 'org' | 'request'>,
  email: string,
  deviceId: string | null = null,
) => throttle(ctx.deps.store, org.id, email, rateLimitKey(request), clock.now(), deviceId);
