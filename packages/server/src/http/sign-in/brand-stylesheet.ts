import { createHash } from 'node:crypto';
import { darkSurfaceOf, inkOn } from '../../domain/branding/index.js';
import type { Branding } from '../../domain/types.js';

/**
 * A brand's colours as a stylesheet (DESIGN §21, docs/branding.md), served from the org's own host
 * at `/branding/<sha256>.css` and linked by the pages that show the brand. It sets only the custom
 * properties of the pages' stylesheet (layout.ts), and only from colours checked on write
 * (domain/branding/colours.ts, `#rrggbb`): no text an org typed is ever CSS.
 *
 * Light mode: the buttons in `primary` with the ink chosen for it, the page in `background` with
 * its ink for the text on it. Dark mode (`prefers-color-scheme: dark`): the buttons keep `primary`
 * and its ink (the same pair, so the same contrast), the page a dark surface derived from
 * `background` (its hue kept, white text on it), the card the pages' own dark card.
 */
export interface BrandStylesheet {
  css: string;
  /** Hex SHA-256 of `css`: its file name. */
  sha256: string;
}

const HEX = /^#[0-9a-f]{6}$/;

/** The stylesheet of a brand's colours, or null when it sets none. */
export function brandStylesheet(brand: Branding): BrandStylesheet | null {
  // The stored values were checked on write; anything else here is a bug, never CSS.
  const primary = brand.primary !== null && HEX.test(brand.primary) ? brand.primary : null;
  const background = brand.background !== null && HEX.test(brand.background) ? brand.background : null;
  if (primary === null && background === null) return null;
  const light: string[] = [];
  const dark: string[] = [];
  if (primary !== null) light.push(`--primary:${primary}`, `--on-primary:${inkOn(primary).ink}`);
  if (background !== null) {
    light.push(`--page-background:${background}`, `--on-page:${inkOn(background).ink}`);
    dark.push(`--page-background:${darkSurfaceOf(background)}`, '--on-page:#ffffff');
  }
  const css =
    `:root{${light.join(';')}}\n` +
    (dark.length > 0 ? `@media (prefers-color-scheme:dark){:root{${dark.join(';')}}}\n` : '');
  return { css, sha256: createHash('sha256').update(css).digest('hex') };
}
