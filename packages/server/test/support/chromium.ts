import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { CHROMIUM_PATH } from './environment.js';

/**
 * One headless Debian Chromium per test process, shared by the files of its group (scripts/test.mjs
 * runs an area's files in one process). Each suite still works in its own browser contexts, so no
 * cookie, storage or page crosses from one suite to the next; only the launch (~0.7 s of CPU) is
 * shared.
 *
 * `launchChromium()` hands out the shared browser; its `close()` releases this suite's hold. When
 * no suite holds it, the browser closes a moment later unless the next file of the group takes it
 * first, so a process never ends with a browser still running.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // No name leaves the machine: Chromium still asks for autofill, account and font hosts with the flags
  // above (thousands of lookups in a whole run). Names under .localhost and loopback literals still resolve.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE *.localhost, EXCLUDE 127.0.0.1',
];
const LINGER_MS = 1_000;

let shared: Promise<Browser> | null = null;
let holders = 0;
let closing: NodeJS.Timeout | null = null;

function release(): void {
  holders -= 1;
  if (holders > 0 || !shared) return;
  const browser = shared;
  closing = setTimeout(() => {
    closing = null;
    shared = null;
    void browser.then((b) => b.close()).catch(() => undefined);
  }, LINGER_MS);
}

/** Headless Debian Chromium with the machine's flags (no sandbox as root, no calls home). */
export async function launchChromium(): Promise<Browser> {
  if (closing) clearTimeout(closing);
  closing = null;
  holders += 1;
  const launching = shared ?? chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  shared = launching;
  let browser: Browser;
  try {
    browser = await launching;
  } catch (error) {
    holders -= 1;
    if (shared === launching) shared = null;
    throw error;
  }
  if (!browser.isConnected()) {
    // The shared one went away (a crash): this suite gets a new one, and so do later ones.
    holders -= 1;
    if (shared === launching) shared = null;
    return launchChromium();
  }
  let released = false;
  // What this suite opened closes with its hold, as it would with a browser of its own.
  const contexts = new Set<BrowserContext>();
  return new Proxy(browser, {
    get(target, property) {
      if (property === 'close') {
        return async () => {
          if (released) return;
          released = true;
          await Promise.all([...contexts].map((c) => c.close().catch(() => undefined)));
          release();
        };
      }
      if (property === 'newContext') {
        return async (...args: Parameters<Browser['newContext']>) => {
          const context = await target.newContext(...args);
          contexts.add(context);
          return context;
        };
      }
      if (property === 'newPage') {
        return async (...args: Parameters<Browser['newPage']>) => {
          const page = await target.newPage(...args);
          contexts.add(page.context());
          return page;
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
