import { z } from 'zod';
import {
  MAX_DISPLAY_NAME,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_SIDE,
  MAX_LINK_LENGTH,
} from '../../domain/branding/index.js';

/** The longest base64 an image of MAX_IMAGE_BYTES takes (a longer one is refused by its size anyway). */
export const MAX_IMAGE_BASE64 = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;

export const BrandingImage = z.object({
  url: z.string().meta({
    format: 'uri',
    description: 'where the org’s host serves it: `/branding/<sha256>.<ext>`, cached for a year (immutable)',
  }),
  media_type: z.enum(['image/png', 'image/jpeg', 'image/webp']),
  width: z.number().int(),
  height: z.number().int(),
});

const colourOut = z.string().nullable().meta({ pattern: '^#[0-9a-f]{6}$' });

export const OrganizationBranding = z.object({
  display_name: z
    .string()
    .nullable()
    .meta({ description: 'the name the pages and mails show; null: the org’s name' }),
  logo: BrandingImage.nullable(),
  favicon: BrandingImage.nullable(),
  primary: colourOut.meta({ description: 'the buttons’ colour; null: the pages’ own blue' }),
  background: colourOut.meta({ description: 'the page background in light mode; null: the pages’ own grey' }),
  text_on_primary: colourOut.meta({
    description:
      'the text colour chosen for the buttons: white or #1d2330, whichever contrasts more (at least 4.5:1)',
  }),
  text_on_background: colourOut.meta({
    description: 'the text colour chosen for the background, as for primary',
  }),
  terms_url: z.string().nullable(),
  privacy_url: z.string().nullable(),
});

const image = z
  .string()
  .max(MAX_IMAGE_BASE64, `must be at most ${MAX_IMAGE_BYTES} bytes (256 KB) before base64`)
  .nullable()
  .meta({
    description: `the image file as base64 (no \`data:\` prefix): PNG, JPEG or WebP by its bytes, at most 256 KB and ${MAX_IMAGE_SIDE} pixels a side; null removes it`,
  });
const colourIn = z
  .string()
  .max(7, 'must be a hex colour such as #2f5bea')
  .nullable()
  .meta({
    description:
      '`#rrggbb` or `#rgb`; refused when neither white nor #1d2330 text reaches 4.5:1 on it; null removes it',
    examples: ['#2f5bea'],
  });
const link = z
  .string()
  .max(MAX_LINK_LENGTH, `must be at most ${MAX_LINK_LENGTH} characters`)
  .nullable()
  .meta({
    description: 'https (or http on localhost, 127.0.0.1, [::1]); null removes it',
  });

export const UpdateOrganizationBrandingBody = z.strictObject({
  display_name: z
    .string()
    .max(MAX_DISPLAY_NAME, `must be 1-${MAX_DISPLAY_NAME} characters`)
    .nullable()
    .optional()
    .meta({ description: `1-${MAX_DISPLAY_NAME} characters, shown as text; null removes it` }),
  logo: image.optional(),
  favicon: image.optional(),
  primary: colourIn.optional(),
  background: colourIn.optional(),
  terms_url: link.optional(),
  privacy_url: link.optional(),
});
