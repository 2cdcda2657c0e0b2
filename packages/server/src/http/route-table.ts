import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  url: string;
  /** A hosted page (page-routes.ts): its errors are HTML pages. */
  hostedPage: boolean;
  /** Registered from its declaration (http/register-operations.ts), not by hand. */
  declared: boolean;
  /** Registered from a hosted page's declaration (http/sign-in/register-pages.ts), not by hand. */
  declaredPage: boolean;
}

const tables = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Starts recording every route registered on `app` from now on (child scopes included). */
export function recordRoutes(app: FastifyInstance): void {
  const table: RegisteredRoute[] = [];
  tables.set(app, table);
  app.addHook('onRoute', (route) => {
    const hostedPage = route.config?.hostedPage === true;
    const declared = route.config?.declared === true;
    const declaredPage = route.config?.declaredPage === true;
    for (const method of [route.method].flat()) {
      table.push({ method, url: route.url, hostedPage, declared, declaredPage });
    }
  });
}

/** The routes recorded on `app` (complete once it is ready). */
export function routesOf(app: FastifyInstance): readonly RegisteredRoute[] {
  return tables.get(app) ?? [];
}
