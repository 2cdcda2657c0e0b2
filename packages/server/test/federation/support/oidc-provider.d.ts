/**
 * The little of oidc-provider's API the federation tests use (it ships no types, and @types/oidc-provider
 * is not installed): a provider built from a configuration, served through its request handler.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  interface Configuration {
    clients?: Record<string, unknown>[];
    findAccount?: (ctx: unknown, id: string) => Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    features?: Record<string, unknown>;
    cookies?: { keys?: string[] };
    /** false: the ID token carries the claims its scopes ask for, not only userinfo. */
    conformIdTokenClaims?: boolean;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
