import type { z } from 'zod';
import {
  type BrandingChange,
  clientBranding,
  imageFileOf,
  inkOn,
  orgBranding,
  updateBranding,
} from '../../domain/branding/index.js';
import type { Deps } from '../../domain/context.js';
import { fail } from '../../domain/errors.js';
import { originOf } from '../../domain/issuers.js';
import type { BrandImage, Branding, Org } from '../../domain/types.js';
import { managementInput, sentFields } from './api-input.js';
import { OrganizationBranding, UpdateOrganizationBrandingBody } from './branding-schemas.js';
import { endpoint, ok } from './endpoint.js';
import { ownedItems } from './owned-items.js';
import { apiError, jsonRequest, ORG, OWNERS_READ, OWNERS_WRITE, ownersRefusals } from './responses.js';

/** Room for two images in base64 and the rest (the API's other bodies stop at 64 KB). */
export const BRANDING_BODY_LIMIT = 768 * 1024;

const imageView = (deps: Deps, org: Org, image: BrandImage | null) =>
  image === null
    ? null
    : {
        url: `${originOf(deps.config, org)}/branding/${imageFileOf(image)}`,
        media_type: image.mediaType,
        width: image.width,
        height: image.height,
      };

const view = (deps: Deps, org: Org, b: Branding): z.output<typeof OrganizationBranding> => ({
  display_name: b.displayName,
  logo: imageView(deps, org, b.logo),
  favicon: imageView(deps, org, b.favicon),
  primary: b.primary,
  background: b.background,
  text_on_primary: b.primary === null ? null : inkOn(b.primary).ink,
  text_on_background: b.background === null ? null : inkOn(b.background).ink,
  terms_url: b.termsUrl,
  privacy_url: b.privacyUrl,
});

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** An image field's base64 as bytes; anything but strict base64 refused, naming the field. */
function imageBytes(field: string, value: string | null | undefined): Buffer | null | undefined {
  if (value === undefined || value === null) return value;
  if (!BASE64.test(value))
    return fail('branding.image.encoding', `${field}: must be the image file as base64`);
  return Buffer.from(value, 'base64');
}

type Body = z.output<typeof UpdateOrganizationBrandingBody>;

const changeOf = (body: Body): BrandingChange => ({
  ...sentFields(body, {
    display_name: 'displayName',
    primary: 'primary',
    background: 'background',
    terms_url: 'termsUrl',
    privacy_url: 'privacyUrl',
  }),
  ...(body.logo === undefined ? {} : { logo: imageBytes('logo', body.logo) }),
  ...(body.favicon === undefined ? {} : { favicon: imageBytes('favicon', body.favicon) }),
});

const UPDATE_DESCRIPTION =
  'Fields left out keep their value; null removes one. Images are the file as base64 in the JSON body ' +
  '(PNG, JPEG or WebP told by their bytes, never SVG; at most 256 KB and 2048 pixels a side; metadata ' +
  'dropped). A colour on which neither white nor #1d2330 text reaches WCAG AA (4.5:1) is refused, the ' +
  'field and the best ratio named. All changes apply or none; a change is audited as one ' +
  '`branding.updated` entry (webhooks too).';

const refused = apiError(
  '`invalid_request`: an unknown field, a colour that is not hex or misses 4.5:1 contrast, an image that is not PNG, JPEG or WebP by its bytes, too large or malformed, a link that is not https (the field named)',
);
const noOrg = apiError('`not_found`: no such org, or the caller cannot manage it');
const clients = ownedItems({ collection: 'clients', noun: 'client', prefix: 'cli' });

/**
 * An org's brand on its hosted pages and mails, and its clients' own (DESIGN §21,
 * docs/branding.md): owners read and change them; members 403, like the texts.
 */
export const BRANDING_ENDPOINTS = [
  endpoint(
    {
      ...OWNERS_READ,
      method: 'get',
      path: '/organizations/:org/branding',
      operationId: 'getOrganizationBranding',
      summary: 'The org’s brand on its hosted pages and mails',
      params: ORG,
      responses: {
        200: { description: 'the brand as set (null fields: the pages’ own)', schema: OrganizationBranding },
        ...ownersRefusals(noOrg),
      },
    },
    async ({ deps, caller }) => ok(view(deps, caller.org, await orgBranding(deps, caller.org))),
  ),
  endpoint(
    {
      ...OWNERS_WRITE,
      method: 'patch',
      path: '/organizations/:org/branding',
      operationId: 'updateOrganizationBranding',
      summary: 'Set or remove the org’s name, logo, favicon, colours and links on its pages and mails',
      description: UPDATE_DESCRIPTION,
      params: ORG,
      bodyLimit: BRANDING_BODY_LIMIT,
      body: jsonRequest(UpdateOrganizationBrandingBody),
      responses: {
        200: { description: 'the brand as it is now', schema: OrganizationBranding },
        400: refused,
        ...ownersRefusals(noOrg),
      },
    },
    async ({ deps, caller, body }) => {
      const after = await managementInput(
        Promise.resolve().then(() => updateBranding(deps, caller.org, null, changeOf(body), caller.actor)),
      );
      return ok(view(deps, caller.org, after));
    },
  ),
  clients.get(
    {
      operationId: 'getClientBranding',
      summary: 'A client’s own brand: the fields it sets in place of the org’s',
      at: '/branding',
      schema: OrganizationBranding,
      answer: 'the client’s brand as set (null fields: the org’s)',
    },
    async (deps, org, id) => view(deps, org, await clientBranding(deps, org, id)),
  ),
  clients.update(
    {
      operationId: 'updateClientBranding',
      summary: 'Set or remove a client’s own name, logo, favicon, colours and links',
      description: `${UPDATE_DESCRIPTION} A field the client sets wins over the org’s on the pages reached for that client.`,
      at: '/branding',
      bodyLimit: BRANDING_BODY_LIMIT,
      body: UpdateOrganizationBrandingBody,
      schema: OrganizationBranding,
      answer: 'the client’s brand as it is now',
      refusals: { 400: refused },
    },
    async (deps, caller, id, body) => {
      const after = await managementInput(
        Promise.resolve().then(() => updateBranding(deps, caller.org, id, changeOf(body), caller.actor)),
      );
      return view(deps, caller.org, after);
    },
  ),
];
