import type { FastifyInstance } from 'fastify';
import type { PageContext } from './context.js';
import { pageRoute } from './context.js';
import { formFields, type HostedPage } from './hosted-page.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on routes registered from a hosted page's declaration, for the route table (http/route-table.ts). */
    declaredPage?: boolean;
  }
}

/**
 * Registers every declared hosted page (pages.ts), the one way a page's route comes to exist: at
 * its method and path, marked a page's (its errors are HTML) and declared. Before the handler runs,
 * the org is resolved, the page's language and brand negotiated (pageRoute), and a POST's declared
 * form fields read.
 */
export function registerPages(app: FastifyInstance, ctx: PageContext, pages: readonly HostedPage[]): void {
  for (const declared of pages) {
    const { config, handler } = pageRoute(ctx, (org, request, reply) => {
      const form = declared.form === undefined ? {} : formFields(request, declared.form);
      const params = (request.params ?? {}) as Record<string, string>;
      return declared.page({ ctx, org, request, reply, params, form });
    });
    app.route({
      method: declared.method.toUpperCase() as 'GET' | 'POST',
      url: declared.path,
      config: { ...config, declaredPage: true },
      handler,
    });
  }
}
