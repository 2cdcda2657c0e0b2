/**
 * The time sign-in rules read (code and key expiry, throttle windows, token `iat`/`exp`). Tests
 * move it forward instead of sleeping; nothing else should assign to it.
 */
export const clock = {
  now: (): number => Date.now(),
};
