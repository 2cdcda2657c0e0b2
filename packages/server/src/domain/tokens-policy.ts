/** Lifetimes of what the service issues (DESIGN §5). */
export const ACCESS_TOKEN_TTL_S = 15 * 60;
/** A retired key stays published this long after rotation: every token it signed has expired by then. */
export const RETIRED_KEY_GRACE_MS = (ACCESS_TOKEN_TTL_S + 5 * 60) * 1000;
