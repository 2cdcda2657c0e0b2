import { requireConnection, spMetadata } from '../../domain/federation/index.js';
import { operation } from '../served-operation.js';
import { pageRoute } from './context.js';

/**
 * GET /saml/:con/metadata: a SAML connection's service-provider metadata (DESIGN §17), the XML an
 * identity provider's administrator loads to trust this org. Public: it holds the entity id, the
 * ACS URL and the signing certificate, nothing secret. A connection of another org, or none, is the
 * hosted 404 page (like every /saml/{con}/… path); an OIDC connection, a short text.
 */
export const samlMetadata = operation(
  {
    method: 'get',
    path: '/saml/:con/metadata',
    operationId: 'samlMetadata',
    summary: 'A SAML connection’s service-provider metadata (XML), for the identity provider',
    tag: 'federation',
    hosts: 'every',
    auth: 'none',
    params: { con: 'the connection id (`con_…`)' },
    responses: {
      200: {
        description: 'the SP metadata: entity id, ACS URL, signing certificate (`Cache-Control: no-cache`)',
        contentType: 'application/samlmetadata+xml',
      },
      404: {
        description: 'no such connection in this org (an HTML page), or not a SAML connection (text)',
        contentType: 'text/html',
      },
    },
  },
  ({ pages: ctx }) =>
    pageRoute(ctx, async (org, request, reply) => {
      const { con } = request.params as { con: string };
      const c = await requireConnection(ctx.deps, org, con);
      if (c.type !== 'saml') return reply.code(404).type('text/plain').send('not a SAML connection');
      return reply
        .header('content-type', 'application/samlmetadata+xml; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(spMetadata(ctx.deps, org, c));
    }),
);
