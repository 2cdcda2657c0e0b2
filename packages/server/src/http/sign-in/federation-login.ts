import type { FastifyRequest } from 'fastify';
import { type Connection, connectionForEmail, listConnections } from '../../domain/federation/index.js';
import type { Org } from '../../domain/types.js';
import { type PageContext, pageLink } from './context.js';
import { connectionButtonsView } from './federation-views.js';
import { textsOf } from './page-texts.js';
import { formTargetOf } from './respond.js';

/** What the login page needs of the org's connections (DESIGN §17); the way out and back is federation.ts. */

/** The login page's connection buttons, and the upstream origins its form may be sent on to. */
export async function loginConnections(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reqId: string | null,
) {
  const connections = await listConnections(ctx.deps, org);
  const params: Record<string, string> = reqId ? { req: reqId } : {};
  const buttons = connections.map((c) => ({
    name: c.name,
    href: pageLink(ctx, request, `/sso/${c.id}/start`, params),
  }));
  return {
    buttons: connectionButtonsView(textsOf(request), buttons),
    upstreams: connections.map(upstreamOrigin),
    discovery: connections.some((c) => c.domains.length > 0),
  };
}

/** Where the browser is sent to sign in upstream (CSP form-action follows the login form's redirects). */
const upstreamOrigin = (c: Connection) => formTargetOf(c.type === 'oidc' ? c.oidc.issuer : c.saml.ssoUrl);

/** Email-domain discovery: the start link of the connection claiming the address's domain, or null. */
export async function discoveredConnection(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  email: string,
  reqId: string | undefined,
): Promise<string | null> {
  const c = await connectionForEmail(ctx.deps, org, email);
  if (c === null) return null;
  return pageLink(ctx, request, `/sso/${c.id}/start`, {
    ...(reqId ? { req: reqId } : {}),
    login_hint: email,
  });
}
