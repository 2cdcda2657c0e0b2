import type { FastifyRequest } from 'fastify';
import { effectiveBranding, imageFileOf, NO_BRANDING } from '../../domain/branding/index.js';
import type { Deps } from '../../domain/context.js';
import type { BrandImage, Branding, Org } from '../../domain/types.js';
import { HOST_OVERRIDE_PARAMETER, hostOverride } from '../host-override.js';
import { orgPathPrefix } from '../org-path.js';
import { brandStylesheet } from './brand-stylesheet.js';
import { pendingOfPage } from './page-pending.js';

/**
 * The brand of a hosted page (DESIGN §21, docs/branding.md): the org's, with the fields of the
 * client the page is reached for in their place. Read once per request before its handler runs
 * (pageRoute), then by the layout (brandOf). The client is the one of the pending sign-in the page
 * carries (`req`: an authorization request or a device authorization), else the `client_id` the
 * page was asked with (sign-out), else none.
 */
const BRANDS = new WeakMap<FastifyRequest, PageBrand>();

/** What reading the brand needs: the store (brands, pending sign-ins) and the settings. */
interface PageContext {
  deps: Deps;
}

/** What the layout puts on a page of the brand: its name, addresses of its assets, its links. */
export interface PageBrand {
  /** The display name, else null (the org's name then). */
  name: string | null;
  logo: { src: string; width: number; height: number } | null;
  favicon: { src: string; type: string } | null;
  /** The colours' stylesheet on this host, or null: the pages' own colours. */
  stylesheet: string | null;
  termsUrl: string | null;
  privacyUrl: string | null;
}

const PENDING = /^(arq|dva)_[A-Za-z0-9_-]{1,64}$/;
const CLIENT_ID = /^[A-Za-z0-9_.:-]{1,200}$/;

function queryString(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** The client this page is reached for, or null. */
async function clientOfPage(ctx: PageContext, org: Org, request: FastifyRequest): Promise<string | null> {
  const req = queryString(request, 'req');
  if (req !== undefined && PENDING.test(req)) {
    const pending = await pendingOfPage(ctx.deps, org, request, req);
    if (pending !== null) return pending.client.id;
  }
  const clientId = queryString(request, 'client_id');
  return clientId !== undefined && CLIENT_ID.test(clientId) ? clientId : null;
}

/**
 * An asset of the brand on this host: under the org's `/o/<slug>` with path issuers, with the
 * loopback `host` override kept (as page links keep it), so the browser asks the org that made the page.
 */
function assetUrl(ctx: PageContext, request: FastifyRequest, file: string): string {
  const override = hostOverride(ctx.deps.config, request);
  const query = override === null ? '' : `?${new URLSearchParams({ [HOST_OVERRIDE_PARAMETER]: override })}`;
  return `${orgPathPrefix(request)}/branding/${file}${query}`;
}

/** A brand as the layout shows it, its assets' addresses on this request's host. */
export function pageBrandOf(ctx: PageContext, request: FastifyRequest, b: Branding): PageBrand {
  const image = (i: BrandImage) => assetUrl(ctx, request, imageFileOf(i));
  const sheet = brandStylesheet(b);
  return {
    name: b.displayName,
    logo: b.logo === null ? null : { src: image(b.logo), width: b.logo.width, height: b.logo.height },
    favicon: b.favicon === null ? null : { src: image(b.favicon), type: b.favicon.mediaType },
    stylesheet: sheet === null ? null : assetUrl(ctx, request, `${sheet.sha256}.css`),
    termsUrl: b.termsUrl,
    privacyUrl: b.privacyUrl,
  };
}

/** Reads the page's brand (the org's, the client's fields in their place) for the layout. */
export async function negotiatePageBrand(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
): Promise<PageBrand> {
  const brand = pageBrandOf(
    ctx,
    request,
    await effectiveBranding(ctx.deps, org, await clientOfPage(ctx, org, request)),
  );
  BRANDS.set(request, brand);
  return brand;
}

/** The brand of this request's page; none read (a page refused before its handler): the pages' own look. */
export const brandOf = (request: FastifyRequest): PageBrand =>
  BRANDS.get(request) ?? {
    name: NO_BRANDING.displayName,
    logo: null,
    favicon: null,
    stylesheet: null,
    termsUrl: null,
    privacyUrl: null,
  };
