/** An API resource's access token lifetime, in seconds (DESIGN §15): 60 s to 24 h, 15 min by default. */
export const ACCESS_TOKEN_TTL = { min: 60, max: 86_400, default: 900 } as const;
