import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { Org } from '../../src/domain/types.js';
import { makeClient, makeOrg, makeUser, PASSWORD } from '../sign-in/support/fixtures.js';
import { launchChromium } from '../support/chromium.js';
import { chromiumSkip } from '../support/environment.js';
import { freePort, startServer, type TestServer } from '../support/server.js';
import { spawnGroup } from '../support/tessera-process.js';

/**
 * The quickstarts of examples/, each started as its README says (plain `node`, no TypeScript loader, the
 * environment the README names and nothing of the test runner's) against one Tessera with path issuers
 * (TESSERA_ISSUER_STYLE=path, so the examples reach it on `localhost` with no DNS rule), and signed into in
 * Chromium as a person would. Run from the checkout, the examples find their packages in its node_modules.
 */

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const EXAMPLES = join(REPO, 'examples');
const EMAIL = 'ada@acme.test';

/** What an example's process printed, and the process. */
interface Running {
  child: ChildProcess;
  output: () => string;
}

/** Starts `file` of an example with plain node and `env` alone; resolves once it printed `ready`. */
function startExample(example: string, file: string, env: Record<string, string>, ready: string) {
  const child = spawnGroup(process.execPath, [file], {
    cwd: join(EXAMPLES, example),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let output = '';
  return new Promise<Running>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) resolve({ child, output: () => output });
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${example}/${file} exited ${code}:\n${output}`)));
  });
}

function stop(running: Running | undefined): void {
  const pid = running?.child.pid;
  if (pid === undefined || running?.child.exitCode !== null) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

describe('examples/: each quickstart started as its README says and signed into in Chromium', () => {
  const skip = chromiumSkip();
  let tessera: TestServer;
  let org: Org;
  let issuer: string;
  let browser: Browser;

  before(async () => {
    if (skip) return;
    tessera = await startServer({ env: { TESSERA_ISSUER_STYLE: 'path' }, webhooks: false });
    org = await makeOrg(tessera, 'acme');
    issuer = tessera.issuer('acme');
    await makeUser(tessera.deps, org, EMAIL);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await tessera?.close();
  });

  /** On Tessera's login page: signs Ada in, allows the consent page when one is shown. */
  async function signInAtTessera(page: Page, back: string): Promise<void> {
    await page.waitForURL((u) => u.href.startsWith(`${issuer}login`));
    await page.fill('#email', EMAIL);
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL((u) => u.href.startsWith(`${issuer}consent`) || u.href.startsWith(back));
    if (page.url().startsWith(`${issuer}consent`)) await page.click('button[value=allow]');
    await page.waitForURL((u) => u.href.startsWith(back));
  }

  test('express-openid-client: code flow with PKCE, the person on the home page, sign-out at Tessera', {
    skip,
  }, async () => {
    const port = await freePort();
    const app = `http://localhost:${port}`;
    const { clientId, secret } = await makeClient(tessera.deps, org, {
      name: 'Express example',
      kind: 'confidential',
      redirectUris: [`${app}/callback`],
      postLogoutRedirectUris: [`${app}/`],
    });
    const running = await startExample(
      'express-openid-client',
      'server.mjs',
      {
        TESSERA_ISSUER: issuer,
        CLIENT_ID: clientId,
        CLIENT_SECRET: secret as string,
        PORT: String(port),
        SESSION_SECRET: 'a session secret of at least 32 characters',
      },
      `listening on ${app}`,
    );
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const authorizeRequests: URL[] = [];
      let callback = '';
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.href.startsWith(`${issuer}oauth/authorize`)) authorizeRequests.push(url);
        if (url.href.startsWith(`${app}/callback`)) callback = url.href;
      });
      await page.goto(app);
      assert.equal(await page.textContent('h1'), 'Not signed in');
      await page.click('text=Sign in');
      await signInAtTessera(page, app);
      assert.equal(page.url(), `${app}/`);
      assert.equal(await page.textContent('h1'), 'Signed in as Ada Lovelace');
      assert.equal(await page.textContent('#name'), 'Ada Lovelace');
      assert.equal(await page.textContent('#email'), EMAIL);

      // What the app asked for: the code flow with S256 PKCE, a state and a nonce.
      const asked = authorizeRequests[0] ?? assert.fail('the app sent nobody to Tessera');
      assert.equal(asked.searchParams.get('response_type'), 'code');
      assert.equal(asked.searchParams.get('code_challenge_method'), 'S256');
      assert.match(asked.searchParams.get('code_challenge') ?? '', /^[\w-]{43}$/);
      assert.ok(asked.searchParams.get('state'));
      assert.ok(asked.searchParams.get('nonce'));
      // The session is one sealed cookie no script reads; the pending sign-in's cookie is gone.
      const cookies = await context.cookies(app);
      assert.deepEqual(
        cookies.map((c) => [c.name, c.httpOnly, c.sameSite]),
        [['session', true, 'Lax']],
      );
      const sealed = Buffer.from(cookies[0]?.value ?? '', 'base64url').toString('latin1');
      assert.ok(!sealed.includes(EMAIL) && !sealed.includes('eyJ'), 'the cookie is sealed');

      // The callback again (a replay, or a stolen link): nothing to finish, no session from it.
      const replay = await context.request.get(callback, { maxRedirects: 0 });
      assert.equal(replay.status(), 400);
      assert.equal(await replay.text(), 'No sign-in in progress here: start again at /login');

      // Sign-out ends Tessera's sign-in too, and comes straight back.
      await page.click('text=Sign out');
      await page.waitForURL(`${app}/`);
      assert.equal(await page.textContent('h1'), 'Not signed in');
      await page.click('text=Sign in');
      await page.waitForURL((u) => u.href.startsWith(`${issuer}login`));
      assert.deepEqual(
        (await context.cookies(app)).map((c) => c.name),
        ['sign_in'],
      );
      // Nothing the app printed holds a token or the secret.
      assert.doesNotMatch(running.output(), /eyJ|tcs_/);
    } finally {
      await context.close();
      stop(running);
    }
  });
});
