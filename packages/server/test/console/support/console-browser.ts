import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { createUser } from '../../../src/domain/directory/users.js';
import { SYSTEM } from '../../../src/domain/types.js';
import { findConsoleOrg } from '../../../src/storage/repos/orgs.js';
import { OWNER_PASSWORD } from '../../management/support/console.js';
import type { TestServer } from '../../support/server.js';

export { launchChromium } from '../../support/chromium.js';
export { OWNER_PASSWORD };

/** Where the screenshots go: test-results/console/, kept by CI. */
export const SCREENSHOTS = fileURLToPath(new URL('../../../../../test-results/console/', import.meta.url));

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
const JPEG = { type: 'jpeg', quality: 85 } as const;

/** A console user with no organization yet (password OWNER_PASSWORD). */
export async function makeConsoleUser(server: TestServer, email: string): Promise<void> {
  const consoleOrg = await findConsoleOrg(server.db);
  if (!consoleOrg) throw new Error('no console org');
  await createUser(server.deps, consoleOrg, { email, password: OWNER_PASSWORD }, SYSTEM);
}

/**
 * Opens `path` of the console in a new page of `context` and signs in on the hosted login as
 * `email` (consenting when asked), until the app shows its navigation bar.
 */
export async function signInToConsole(
  context: BrowserContext,
  server: TestServer,
  email: string,
  path = '/console/',
): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${server.base}${path}`);
  await page.waitForURL((u) => u.pathname === '/login');
  await page.fill('#email', email);
  await page.fill('#password', OWNER_PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForURL((u) => u.pathname === '/consent' || u.pathname.startsWith('/console/'));
  if (new URL(page.url()).pathname === '/consent') await page.click('button[value=allow]');
  await page.waitForSelector('header.topbar');
  return page;
}

/**
 * axe-core's analysis of the page for `tags`. A page of one frame (the console's and the hosted pages
 * have no iframe) is analysed in itself, axe's "legacy mode": the same rules and results at half the
 * CPU of the default mode, which opens a blank page in the context for every analysis to put the
 * results of several frames together.
 */
export function axeAnalysis(page: Page, tags: string[]): ReturnType<AxeBuilder['analyze']> {
  const builder = new AxeBuilder({ page }).withTags(tags);
  return (page.frames().length === 1 ? builder.setLegacyMode() : builder).analyze();
}

/** No serious or critical accessibility violation on the page as it is now (axe-core, WCAG 2.x A/AA). */
export async function assertAccessible(page: Page, name: string): Promise<void> {
  const results = await axeAnalysis(page, ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`),
    [],
    `accessibility of ${name}`,
  );
}

/**
 * The page at desktop (1280×800) and phone (390×844) size, full length, as
 * test-results/console/<name>-desktop.jpg and <name>-phone.jpg; at phone size nothing scrolls sideways.
 * JPEG at quality 85: a console screen is often several screens long, and Chromium took more than twice
 * as long to encode one as PNG (110 screens, two sizes each, in a run), for a picture a person reads as well.
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const size = page.viewportSize();
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `${SCREENSHOTS}${name}-desktop.jpg`, fullPage: true, ...JPEG });
  await page.setViewportSize(PHONE);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await page.screenshot({ path: `${SCREENSHOTS}${name}-phone.jpg`, fullPage: true, ...JPEG });
  assert.ok(overflow <= 0, `${name} scrolls sideways at phone width by ${overflow}px`);
  if (size) await page.setViewportSize(size);
}

/** Accessibility and screenshots of the page as it is now. */
export async function review(page: Page, name: string): Promise<void> {
  await assertAccessible(page, name);
  await screenshots(page, name);
}
