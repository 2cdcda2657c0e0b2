import { brandImage, EXTENSIONS, everyEffectiveBranding } from '../../domain/branding/index.js';
import { fail } from '../../domain/errors.js';
import { ApiError } from '../management/api-schemas.js';
import { orgOf } from '../org-routing.js';
import { operation } from '../served-operation.js';
import { brandStylesheet } from './brand-stylesheet.js';

/** `<sha256>.<ext>`: nothing else names an asset (no dots, slashes or encodings beyond it). */
const FILE = /^([0-9a-f]{64})\.(png|jpg|webp|css)$/;

/** A year: the name changes with the content, so what is cached is never stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * An image answered as an image and nothing else: its own type, never sniffed, no script, styles or
 * frames even if opened as a document (`sandbox`), and readable by this origin's pages only.
 */
const ASSET_HEADERS = {
  'cache-control': IMMUTABLE,
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; style-src 'none'; script-src 'none'; frame-ancestors 'none'; sandbox",
  'cross-origin-resource-policy': 'same-origin',
};

const unknown = () => fail('branding.asset.unknown', 'no such file of this organization’s brand');

/**
 * GET /branding/{file} on an org's host (or under its `/o/<slug>` with path issuers): the images
 * its brands name and the stylesheets of their colours (DESIGN §21, docs/branding.md), by the
 * SHA-256 of their bytes. Only this org's: an image stored for another org is not found here, so
 * no host ever serves another org's content under its name.
 */
export const brandingAsset = operation(
  {
    method: 'get',
    path: '/branding/:file',
    operationId: 'brandingAsset',
    summary: 'An image or the colours’ stylesheet of the org’s brand, by content hash',
    description:
      'Served on the org’s host only, `Cache-Control: public, max-age=31536000, immutable`, ' +
      '`X-Content-Type-Options: nosniff` and a CSP that lets nothing run.',
    tag: 'sign-in',
    hosts: 'every',
    auth: 'none',
    params: { file: '`<sha256>.png`, `.jpg`, `.webp` (an image) or `.css` (the colours’ stylesheet)' },
    responses: {
      200: { description: 'the image (its own type) or the stylesheet (text/css)', contentType: 'image/png' },
      404: { description: '`not_found`: no such file of this org’s brand, or no org here', schema: ApiError },
    },
  },
  ({ deps }) => ({
    handler: async (request, reply) => {
      const org = await orgOf(deps, request);
      const [, sha256, ext] = FILE.exec((request.params as { file: string }).file) ?? [];
      if (sha256 === undefined || ext === undefined) return unknown();
      if (ext === 'css') {
        const sheet = (await everyEffectiveBranding(deps, org))
          .map(brandStylesheet)
          .find((s) => s !== null && s.sha256 === sha256);
        if (sheet == null) return unknown();
        return reply.headers({ ...ASSET_HEADERS, 'content-type': 'text/css; charset=utf-8' }).send(sheet.css);
      }
      const image = await brandImage(deps, org, sha256);
      if (image === null || EXTENSIONS[image.mediaType] !== ext) return unknown();
      return reply.headers({ ...ASSET_HEADERS, 'content-type': image.mediaType }).send(image.bytes);
    },
  }),
);
