import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Org } from '../../domain/types.js';
import { field, formOf, type PageContext } from './context.js';
import { textsOf } from './page-texts.js';
import { sendErrorPage } from './respond.js';

/** The names `:name` in a route's path (`/sso/:con/start` → `con`). */
type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** What a hosted page's handler is given: the org whose host it is on, the request, and its input. */
export interface PageInput<Path extends string, Field extends string> {
  ctx: PageContext;
  org: Org;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The path's parameters, by name. */
  params: { readonly [K in PathParams<Path>]: string };
  /** Each declared form field's first value ('' when absent); a page without a form gets none. */
  form: { readonly [K in Field]: string };
}

/** A hosted page as declared: where it is, what it is for, the form it reads (then it is a POST). */
export interface PageDeclaration<Path extends string = string, Field extends string = string> {
  readonly path: Path;
  /** What the page does, one line (the route table and docs/architecture.md read it). */
  readonly summary: string;
  /**
   * The fields of the form a POST reads (`application/x-www-form-urlencoded`). The page is given
   * the first value of each; a body that is not a form is refused as the page's HTML error (400).
   */
  readonly form?: readonly Field[];
}

/** A declared hosted page with its handler: registered by registerPages (pages.ts), nowhere else. */
export interface HostedPage extends PageDeclaration {
  /** POST where the page reads a form, GET where it reads none. */
  readonly method: 'get' | 'post';
  readonly page: (input: PageInput<string, string>) => Promise<unknown>;
}

/**
 * Declares a hosted page: its path, summary and form, and the handler that renders it, whose
 * `params` and `form` are typed from the declaration. A page that reads a form is its path's POST;
 * one that reads none, its GET.
 */
export function hostedPage<const Path extends string, const Field extends string = never>(
  declaration: PageDeclaration<Path, Field>,
  page: (input: PageInput<Path, Field>) => Promise<unknown>,
): HostedPage {
  return { method: declaration.form ? 'post' : 'get', ...declaration, page: page as HostedPage['page'] };
}

/** The declared fields of the request's form, each its first value ('' when absent). */
export function formFields(request: FastifyRequest, names: readonly string[]): Record<string, string> {
  const form = formOf(request);
  return Object.fromEntries(names.map((name) => [name, field(form, name)]));
}

/** One visit to a page: what its handlers and the helpers they share pass along. */
export type Visit = Pick<PageInput<string, never>, 'ctx' | 'org' | 'request' | 'reply'>;

/** The answer to a form whose CSRF token does not match: 403, the page's HTML error. */
export const refuseForm = ({ org, request, reply }: Visit) =>
  sendErrorPage(reply, org.name, 403, textsOf(request).t('error.csrf'), 'page.csrf.rejected');
