import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The declared operation a route serves (http/register-operations.ts). */
    operationId?: string;
  }
  interface FastifyRequest {
    /** Set by the read scope's hook on a lag-tolerant operation: lets its reads go to the replica. */
    [READS_MAY_LAG]?: () => void;
  }
}

const READS_MAY_LAG = Symbol('readsMayLag');

/**
 * Where a request's reads may come from, when a read replica is configured (TESSERA_DB_READ_URL):
 * the composition hands the app the router (storage/read-routing.ts) as this port.
 */
export interface ReadScopes {
  /** Runs `next` in a scope whose reads go to the primary until `lagFromNow` is called in it. */
  run(scope: { principal: string | null }, next: () => void): void;
  /** From now on, the running request's reads may come from the replica. */
  lagFromNow(): void;
}

/**
 * The operations whose reads tolerate a replica's lag: what they show may be a moment old without
 * harm (discovery is cached by its readers for minutes anyway; a list is a snapshot). Not the key
 * set: a verifier keeps what it fetched for minutes, and a set read before the replica had a new org's
 * or a rotation's key would make it refuse every token that key signs all that time. A
 * principal still reads its own writes: the router sends its reads to the primary until the replica
 * has replayed them. Everything else (sign-in, tokens, every write and what it reads) reads the primary.
 */
export const LAG_TOLERANT_OPERATIONS: ReadonlySet<string> = new Set([
  'openidConfiguration',
  'oauthServerMetadata',
  'samlMetadata',
  'listOrganizations',
  'listUsers',
  'listMembers',
  'listClients',
  'listServiceAccounts',
  'listRoles',
  'listResources',
  'listConnections',
  'listSigningKeys',
  'listInvitations',
  'listWebhooks',
  'listWebhookDeliveries',
  'listEvents',
  'listTenants',
]);

/** Operations among those that need no credentials: their reads may lag from the start. */
const PUBLIC_OPERATIONS: ReadonlySet<string> = new Set([
  'openidConfiguration',
  'oauthServerMetadata',
  'samlMetadata',
]);

/**
 * The onRequest hook entering each request's read scope. A public lag-tolerant operation reads the
 * replica from the start; a management list only once its caller is authenticated
 * (`readsMayLagNow`, called by the endpoint handler after the guard): the guard's reads (the
 * session is live, the caller is a member) always see the primary, so a session revoked a moment
 * ago is refused on every node whatever the replica's lag.
 */
export function readScopeHook(scopes: ReadScopes) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const operationId = request.routeOptions.config.operationId;
    const lagTolerant =
      request.method === 'GET' && operationId !== undefined && LAG_TOLERANT_OPERATIONS.has(operationId);
    scopes.run({ principal: principalOf(request) }, () => {
      if (lagTolerant && PUBLIC_OPERATIONS.has(operationId)) scopes.lagFromNow();
      else if (lagTolerant) request[READS_MAY_LAG] = () => scopes.lagFromNow();
      done();
    });
  };
}

/** After authentication: a lag-tolerant operation's reads may come from the replica from here on. */
export function readsMayLagNow(request: FastifyRequest): void {
  request[READS_MAY_LAG]?.();
}

/**
 * Who a request acts for, as far as routing reads goes: its bearer token's issuer and subject, read
 * without verifying it (the handler verifies it). A forged one can only send its own reads to the
 * primary, which is never wrong; it cannot make another principal's reads go to the replica.
 */
function principalOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header.length > 8192) return null;
  const match = /^Bearer\s+[A-Za-z0-9_-]+\.([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]*$/i.exec(header);
  if (!match?.[1]) return null;
  try {
    const claims = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8')) as unknown;
    if (typeof claims !== 'object' || claims === null) return null;
    const { iss, sub } = claims as { iss?: unknown; sub?: unknown };
    return typeof iss === 'string' && typeof sub === 'string' ? `${iss} ${sub}` : null;
  } catch {
    return null;
  }
}
