import { requesterKeys, requesterThrottle } from '../sign-in/login-throttle.js';

/**
 * Mails people can make Tessera send (a password reset, a verification link again), per fixed
 * window, counted before anything is looked up, so a known and an unknown address are throttled
 * alike. Kept in the login throttle's table under keys of their own. The requester is throttled,
 * not the account: what strangers ask cannot block the owner's own browser.
 *
 * A stranger (no device cookie of the account, sign-in/device-cookies.ts) meets, in this order:
 * - `perIp` per client address across addresses (1 hour): one machine cannot mail many people.
 * - `perAddressAndIp` per typed address (hashed) **and** client address (15 min): the limit one
 *   requester meets first; it leaves the address free for everyone else.
 * - `perAddress` per typed address (hashed) across client addresses (1 hour): a ceiling so many
 *   machines together cannot flood one mailbox.
 *
 * The account's own browser meets only `perDevice` per device (15 min).
 */
export const MAIL_LIMITS = Object.freeze({
  perIp: 20,
  ipWindowMs: 60 * 60 * 1000,
  perAddressAndIp: 3,
  addressWindowMs: 15 * 60 * 1000,
  perAddress: 10,
  addressCeilingWindowMs: 60 * 60 * 1000,
  perDevice: 3,
});

const KEYS = requesterKeys({
  ip: 'mail-ip',
  address: 'mail-address',
  addressIp: 'mail-address-ip',
  device: 'mail-device',
});

/** Counts one mail (requesterThrottle): the account's device, else the IP, the address at the IP, the address. */
export const reserveMail = requesterThrottle(KEYS, {
  perDevice: { max: MAIL_LIMITS.perDevice, windowMs: MAIL_LIMITS.addressWindowMs },
  perIp: { max: MAIL_LIMITS.perIp, windowMs: MAIL_LIMITS.ipWindowMs },
  perAddressAndIp: { max: MAIL_LIMITS.perAddressAndIp, windowMs: MAIL_LIMITS.addressWindowMs },
  perAddress: { max: MAIL_LIMITS.perAddress, windowMs: MAIL_LIMITS.addressCeilingWindowMs },
});
