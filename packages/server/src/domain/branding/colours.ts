import { fail } from '../errors.js';

/**
 * The brand's colours and the contrast rule they must keep (DESIGN §21, docs/branding.md): a colour
 * is `#rrggbb` (or `#rgb`), stored lower case and six digits; the text put on it is the pages' ink or
 * white, whichever contrasts more (WCAG 2.2 relative luminance and contrast ratio), and a colour on
 * which neither reaches AA for body text (4.5:1) is refused. Only colours checked here ever reach a
 * stylesheet, so nothing an org types is CSS.
 */

/** WCAG 2.2 SC 1.4.3 (AA) for normal text. */
export const AA_CONTRAST = 4.5;

/**
 * The two inks text on a brand colour may take: the pages' own dark ink (every other text on the
 * pages is this colour) and white. Pure black would reach 4.5:1 with one of black and white on any
 * colour at all (the worst case is 4.58:1), so the check would refuse nothing; with the pages' ink the
 * middle band of luminance (about 0.18 to 0.25, e.g. #808080 or #e53935) reaches AA with neither.
 */
export const DARK_INK = '#1d2330';
export const LIGHT_INK = '#ffffff';

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** `#abc` → `#aabbcc`, lower case; null when `value` is no hex colour. */
export function normalHex(value: string): string | null {
  if (!HEX.test(value)) return null;
  const digits = value.slice(1).toLowerCase();
  return `#${digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits}`;
}

const channel = (hex: string, i: number) => {
  const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** WCAG relative luminance of a normal hex colour. */
export const luminance = (hex: string): number =>
  0.2126 * channel(hex, 0) + 0.7152 * channel(hex, 1) + 0.0722 * channel(hex, 2);

/** WCAG contrast ratio of two normal hex colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The ink for text on `hex` and its contrast ratio: the one of the two that contrasts more. */
export function inkOn(hex: string): { ink: string; ratio: number } {
  const dark = contrast(hex, DARK_INK);
  const light = contrast(hex, LIGHT_INK);
  return dark >= light ? { ink: DARK_INK, ratio: dark } : { ink: LIGHT_INK, ratio: light };
}

/** A ratio as people read it: two decimals, cut rather than rounded up (4.499 is never "4.50"). */
export const ratioText = (ratio: number): string => `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;

/**
 * `value` as a brand colour for `field`, or a refusal naming the field: not a hex colour, or one on
 * which neither ink reaches 4.5:1 (the best ratio named, so the owner knows how far off it is).
 */
export function brandColour(field: string, value: string): string {
  const hex = normalHex(value);
  if (hex === null) return fail('branding.colour.invalid', `${field}: must be a hex colour such as #2f5bea`);
  const best = inkOn(hex);
  if (best.ratio < AA_CONTRAST) {
    return fail(
      'branding.colour.contrast',
      `${field}: ${hex} reaches only ${ratioText(best.ratio)} with white or dark text; WCAG AA needs 4.5:1, so choose a darker or lighter colour`,
    );
  }
  return hex;
}

/**
 * The dark surface derived from a light background for `prefers-color-scheme: dark`: the colour
 * mixed into near-black (12% of it kept), so the page keeps the brand's hue while white text on it
 * stays far above AA (more than 12:1).
 */
export function darkSurfaceOf(hex: string): string {
  const base = [0x12, 0x15, 0x1c];
  const mixed = base.map((b, i) => {
    const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16);
    return Math.round(b * 0.88 + c * 0.12);
  });
  return `#${mixed.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}
