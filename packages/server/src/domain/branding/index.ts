/**
 * The public face of domain/branding/ (DESIGN §21, docs/branding.md): an org's brand and its
 * clients' own, the colours' contrast rule, the images' checks, the brand a page or mail shows.
 */
export {
  type BrandingChange,
  brandImage,
  clientBranding,
  effectiveBranding,
  everyEffectiveBranding,
  imageFileOf,
  MAX_DISPLAY_NAME,
  NO_BRANDING,
  orgBranding,
  updateBranding,
} from './branding.js';
export { AA_CONTRAST, contrast, DARK_INK, darkSurfaceOf, inkOn, LIGHT_INK, ratioText } from './colours.js';
export { EXTENSIONS, MAX_IMAGE_BYTES, MAX_IMAGE_SIDE } from './images.js';
export { MAX_LINK_LENGTH } from './links.js';
