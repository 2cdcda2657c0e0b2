import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { createUser } from '../../../src/domain/directory/users.js';
import { SYSTEM } from '../../../src/domain/types.js';
import { findConsoleOrg } from '../../../src/storage/repos/orgs.js';
import { OWNER_PASSWORD } from '../../management/support/console.js';
import { screenshot } from '../../support/screenshot.js';
import type { TestServer } from '../../support/server.js';

export { launchChromium } from '../../support/chromium.js';
export { OWNER_PASSWORD };

/** Where the screenshots go: test-results/console/ (none in CI: support/screenshot.ts says why). */
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

/** axe-core as @axe-core/playwright ships it, injected once into each document analysed in place. */
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.resolve('@axe-core/playwright')).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** What a check reads of an axe-core violation. */
export interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe-core's violations of the page for `tags`. A page of one frame (the console's screens and the hosted
 * pages but the signed-out one) is analysed in place: axe is injected once per document and run with
 * only the violations gathered (`resultTypes`), the same rules and the same violations as AxeBuilder,
 * which injects axe anew for every analysis and gathers every passing node as well (1–2 s a screen in
 * the console's runs, most of the console suites' time). A page with frames goes through AxeBuilder,
 * which puts the frames' results together.
 */
export async function axeAnalysis(page: Page, tags: string[]): Promise<{ violations: AxeViolation[] }> {
  if (page.frames().length > 1) return new AxeBuilder({ page }).withTags(tags).analyze();
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (values) => {
    // biome-ignore lint/suspicious/noExplicitAny: axe-core's global, injected above
    const axe = (window as any).axe;
    const results = await axe.run(document, {
      runOnly: { type: 'tag', values },
      resultTypes: ['violations'],
    });
    return {
      violations: (results.violations as AxeViolation[]).map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target })),
      })),
    };
  }, tags);
}

/** The serious and critical WCAG 2.x A/AA violations of the page as it is now, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await axeAnalysis(page, ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
}

/** No serious or critical accessibility violation on the page as it is now (axe-core, WCAG 2.x A/AA). */
export async function assertAccessible(page: Page, name: string): Promise<void> {
  assert.deepEqual(await seriousViolations(page), [], `accessibility of ${name}`);
}

/**
 * The page at desktop (1280×800) and phone (390×844) size, full length, as
 * test-results/console/<name>-desktop.jpg and <name>-phone.jpg; at phone size nothing scrolls sideways.
 * JPEG at quality 85: a console screen is often several screens long, and Chromium took more than twice
 * as long to encode one as PNG (110 screens, two sizes each, in a run), for a picture a person reads as well.
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize(DESKTOP);
  await screenshot(page, `${SCREENSHOTS}${name}-desktop.jpg`, JPEG);
  await page.setViewportSize(PHONE);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await screenshot(page, `${SCREENSHOTS}${name}-phone.jpg`, JPEG);
  assert.ok(overflow <= 0, `${name} scrolls sideways at phone width by ${overflow}px`);
  if (size) await page.setViewportSize(size);
}

/** Accessibility and screenshots of the page as it is now. */
export async function review(page: Page, name: string): Promise<void> {
  await assertAccessible(page, name);
  await screenshots(page, name);
}
