import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Page } from 'playwright-core';

/**
 * Whether the browser suites write their screenshots to test-results/: yes, unless
 * TESSERA_SCREENSHOTS=0. CI sets it to 0: nobody looks at a passing run's pictures, and drawing
 * them (full length, often at two sizes) was a fifth of the console suites' CPU. What a suite checks
 * around a screenshot (no sideways scrolling at phone width, axe's findings) runs either way.
 */
export const SCREENSHOTS_WANTED = process.env.TESSERA_SCREENSHOTS !== '0';

/** The page as it is now, full length, at `path` (its folder made), when screenshots are wanted. */
export async function screenshot(
  page: Page,
  path: string,
  options: Omit<NonNullable<Parameters<Page['screenshot']>[0]>, 'path'> = {},
): Promise<void> {
  if (!SCREENSHOTS_WANTED) return;
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true, ...options });
}
