import assert from 'node:assert/strict';
import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { Org } from '../../src/domain/types.js';
import { call, consoleOf } from '../management/support/console.js';
import {
  makeClient,
  makeOrg,
  makeUser,
  PASSWORD,
  signIn,
  tokenRequest,
} from '../sign-in/support/fixtures.js';
import { launchChromium } from '../support/chromium.js';
import { cliEnv } from '../support/cli.js';
import { chromiumSkip, DEBIAN_PYTHON, fastapiSkip, GOCODE, goOidcSkip } from '../support/environment.js';
import { TEST_SECRET } from '../support/runtime.js';
import { freePort, startServer, type TestServer } from '../support/server.js';
import { spawnGroup } from '../support/tessera-process.js';
import { cliStandIn, type Followed, follow, tutorialBlocks, tutorialPath } from './support/tutorial.js';

/**
 * The quickstarts of examples/, each started as its README says (plain `node`, Debian's python3, a binary
 * built by `go build`; no TypeScript loader, the environment the README names and nothing of the test
 * runner's) against one Tessera with path issuers (TESSERA_ISSUER_STYLE=path, so the examples reach it on
 * `localhost` with no DNS rule). The apps are signed into in Chromium as a person would; the APIs are called
 * with a service's and a person's tokens, and with refused ones. Run from the checkout, the Node examples find
 * their packages in its node_modules. The Go example builds while the first examples run.
 */

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const EXAMPLES = join(REPO, 'examples');
const EMAIL = 'ada@acme.test';
/** Next.js's command, from the checkout's node_modules (`next` in the example's scripts). */
const NEXT = join(REPO, 'node_modules', 'next', 'dist', 'bin', 'next');
/** The settings of the Tessera the examples and the tutorial run against (the READMEs' `npm start`). */
const TESSERA_ENV = { TESSERA_ISSUER_STYLE: 'path' };

/** What an example's process printed, and the process. */
interface Running {
  child: ChildProcess;
  output: () => string;
}

/**
 * Starts `node <args>` (or `program <args>`) in an example's folder with `env` alone; resolves once it
 * printed `ready`.
 */
function startExample(
  example: string,
  args: string[],
  env: Record<string, string>,
  ready: string,
  program = process.execPath,
) {
  const child = spawnGroup(program, args, {
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
    child.once('exit', (code) =>
      reject(new Error(`${example}: ${args.join(' ')} exited ${code}:\n${output}`)),
    );
  });
}

/**
 * Runs `node <args>` (or `command`: [program, args, env]) in an example's folder to its end, as above;
 * its exit code and what it printed.
 */
function runExample(
  example: string,
  args: string[],
  env: Record<string, string>,
  command?: [string, string[], Record<string, string>],
) {
  const [program, argv, extra] = command ?? [process.execPath, args, {}];
  const child = spawnGroup(program, argv, {
    cwd: join(EXAMPLES, example),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, ...extra },
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Resolves once `running` has printed `line` (a refusal an example logs after its response went out). */
async function printed(running: Running, line: string): Promise<void> {
  while (!running.output().includes(line)) {
    await new Promise((resolve) => {
      running.child.stdout?.once('data', resolve);
      running.child.stderr?.once('data', resolve);
    });
  }
}

/** The tutorial's commands use curl and jq (CI installs jq); without them its test says so and skips. */
function tutorialToolsSkip(): false | string {
  const missing = ['curl', 'jq'].filter((tool) => spawnSync(tool, ['--version']).status !== 0);
  if (missing.length === 0) return false;
  const reason = `SKIPPED: docs/mcp-server.md's commands need ${missing.join(' and ')} (apt-get install -y jq curl)`;
  process.stderr.write(`${reason}\n`);
  return reason;
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

describe('examples/: each quickstart run as its README says', () => {
  const skip = chromiumSkip();
  let tessera: TestServer;
  let org: Org;
  let issuer: string;
  let browser: Browser;
  let adaId: string;
  const pythonSkip = skip || fastapiSkip();
  const goSkip = skip || goOidcSkip();
  /** Where the Go example is built (`go build` in GOPATH mode), while the first examples run. */
  const goDir = mkdtempSync(join(tmpdir(), 'tessera-go-oidc-'));
  let goBuild: Promise<{ code: number | null; stdout: string; stderr: string }> | undefined;
  let nextBuild: Promise<{ code: number | null; stdout: string; stderr: string }> | undefined;
  /** The org owner's management API, as the console and the CLI call it. */
  let manage: (method: string, path: string, body?: unknown) => ReturnType<typeof call>;

  before(async () => {
    if (skip) return;
    // The examples import @tessera/koa and @tessera/sdk as a user's app does: their built dist/, which
    // `npm ci` makes. Incremental: nothing to do when it is up to date (CI), a build after a source change.
    const tsc = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
    const build = spawnSync(
      process.execPath,
      [tsc, '-b', 'packages/koa/tsconfig.build.json', 'packages/sdk/tsconfig.build.json'],
      { cwd: REPO, encoding: 'utf8' },
    );
    assert.equal(build.status, 0, `${build.stdout}${build.stderr}`);
    if (!goSkip) {
      goBuild = runExample('go-oidc', [], {}, [
        'go',
        ['build', '-o', join(goDir, 'go-oidc'), 'main.go'],
        {
          GO111MODULE: 'off',
          GOPATH: GOCODE,
          GOFLAGS: '',
          GOPROXY: 'off',
          GOCACHE: join(goDir, 'cache'),
        },
      ]);
    }
    // `npm run build` of the Next.js example (next build; nothing of Tessera is needed to build it) while
    // the first examples run.
    nextBuild = runExample('nextjs-authjs', [NEXT, 'build'], { NEXT_TELEMETRY_DISABLED: '1' });
    tessera = await startServer({ env: TESSERA_ENV, webhooks: false });
    org = await makeOrg(tessera, 'acme');
    issuer = tessera.issuer('acme');
    adaId = (await makeUser(tessera.deps, org, EMAIL)).user.id;
    const owner = await (await consoleOf(tessera)).token('owner@acme.test');
    manage = (method, path, body) => call(tessera, method, `/organizations/acme${path}`, owner, body);
    browser = await launchChromium();
  });

  /** Registers an API resource in acme with `scopes`, as the README's `tessera resource create` does. */
  async function registerResource(identifier: string, name: string, scopes: string[]): Promise<void> {
    const created = await manage('POST', '/resources', {
      identifier,
      name,
      scopes: scopes.map((scope) => ({ name: scope, description: scope })),
    });
    assert.equal(created.status, 201, created.text);
  }
  after(async () => {
    await goBuild?.catch(() => undefined);
    rmSync(goDir, { recursive: true, force: true });
    await nextBuild?.catch(() => undefined);
    rmSync(join(EXAMPLES, 'nextjs-authjs', '.next'), { recursive: true, force: true });
    await browser?.close();
    await tessera?.close();
  });

  /** On Tessera's login page: signs Ada (or `who`) in, allows the consent page when one is shown. */
  async function signInAtTessera(
    page: Page,
    back: string,
    who = { email: EMAIL, password: PASSWORD },
  ): Promise<void> {
    await page.waitForURL((u) => u.href.startsWith(`${issuer}login`));
    await page.fill('#email', who.email);
    await page.fill('#password', who.password);
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
      ['server.mjs'],
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
      const pending = await context.cookies(app);
      assert.deepEqual(
        pending.map((c) => c.name),
        ['sign_in'],
      );
      // A sealed value moved to the session cookie, or a session cookie changed by one character, is no session.
      const sealedSession = cookies[0]?.value ?? '';
      const changed = `${sealedSession.slice(0, 40)}${sealedSession[40] === 'A' ? 'B' : 'A'}${sealedSession.slice(41)}`;
      // (The untouched one still opens: a session kept only in a cookie lasts until it expires.)
      const kept = await context.request.get(app, { headers: { cookie: `session=${sealedSession}` } });
      assert.match(await kept.text(), /<h1>Signed in as Ada Lovelace<\/h1>/);
      for (const value of [pending[0]?.value ?? '', changed]) {
        const forged = await context.request.get(app, { headers: { cookie: `session=${value}` } });
        assert.match(await forged.text(), /<h1>Not signed in<\/h1>/);
      }
      // Nothing the app printed holds a token or the secret.
      assert.doesNotMatch(running.output(), /eyJ|tcs_/);
    } finally {
      await context.close();
      stop(running);
    }
  });

  test('koa-api: a machine token from client_credentials for the API; each route checks its scope', {
    skip,
  }, async () => {
    const port = await freePort();
    const api = `http://localhost:${port}`;
    const resource = `${api}/invoices`;
    await registerResource(resource, 'Invoices', ['invoices:read', 'invoices:write']);
    const { clientId, secret } = await makeClient(tessera.deps, org, {
      name: 'Billing service',
      kind: 'confidential',
      redirectUris: [],
    });
    const permitted = await manage('PUT', `/clients/${clientId}/permissions`, {
      permissions: [{ resource, scope: 'invoices:read' }],
    });
    assert.equal(permitted.status, 200, permitted.text);
    const running = await startExample(
      'koa-api',
      ['api.mjs'],
      { TESSERA_ISSUER: issuer, PORT: String(port) },
      `invoices API on ${api}`,
    );
    try {
      const metadataUrl = `${api}/.well-known/oauth-protected-resource/invoices`;
      const anonymous = await fetch(`${api}/invoices`);
      assert.equal(anonymous.status, 401);
      assert.equal(
        anonymous.headers.get('www-authenticate'),
        `Bearer realm="invoices", resource_metadata="${metadataUrl}"`,
      );
      assert.deepEqual(await anonymous.json(), {
        error: 'unauthorized',
        error_detail: "we don't know who you are",
      });
      const metadata = await fetch(metadataUrl);
      assert.deepEqual(await metadata.json(), {
        resource,
        authorization_servers: [issuer],
        scopes_supported: ['invoices:read', 'invoices:write'],
        bearer_methods_supported: ['header'],
        resource_name: 'Invoices',
      });
      assert.deepEqual(await (await fetch(`${api}/health`)).json(), { ok: true });

      const billing = await runExample('koa-api', ['client.mjs'], {
        TESSERA_ISSUER: issuer,
        INVOICES_API: api,
        CLIENT_ID: clientId,
        CLIENT_SECRET: secret as string,
      });
      assert.equal(billing.stderr, '');
      assert.equal(
        billing.stdout,
        [
          'granted: invoices:read',
          `GET /invoices: 200 {"caller":{"client":"${clientId}"},"invoices":[{"id":"inv_1","amount":4200,"currency":"EUR"}]}`,
          `POST /invoices: 403 Bearer realm="invoices", error="insufficient_scope", scope="invoices:write", resource_metadata="${metadataUrl}"`,
          '',
        ].join('\n'),
      );
      assert.equal(billing.code, 0);

      // The same client's machine token for no API (the spec's, aud its own id) does not open this one.
      const plain = await tokenRequest(issuer, {
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret as string,
      });
      const refused = await fetch(`${api}/invoices`, {
        headers: { authorization: `Bearer ${plain.body.access_token}` },
      });
      assert.equal(refused.status, 401);
      await printed(running, '401 GET /invoices: wrong_audience');
      assert.doesNotMatch(running.output(), /eyJ/);
    } finally {
      stop(running);
    }
  });

  test("docs/mcp-server.md, followed step by step: the tutorial's server, its refusals and the MCP client", {
    skip: skip || tutorialToolsSkip(),
  }, async () => {
    const page = readFileSync(join(REPO, 'docs', 'mcp-server.md'), 'utf8');
    const blocks = tutorialBlocks(page);
    // Step 1 is the Tessera this suite started: the same command's settings.
    const startLine = blocks
      .flatMap((b) => (b.kind === 'shown' ? b.text.split('\n') : []))
      .find((line) => /^(\w+=\S+ )*npm start\b/.test(line));
    const settings = /^((?:\w+=\S+ )*)npm start/.exec(startLine ?? '')?.[1] ?? assert.fail('no npm start');
    assert.deepEqual(
      Object.fromEntries(
        settings
          .trim()
          .split(' ')
          .map((kv) => kv.split('=') as [string, string]),
      ),
      TESSERA_ENV,
    );
    // The install names every package server.mjs imports (the test finds them in the checkout instead).
    const install = blocks.find((b) => b.kind === 'shown' && b.text.includes('npm install '));
    const server = blocks.flatMap((b) => (b.kind === 'file' && b.file === 'server.mjs' ? [b.text] : []));
    for (const [, imported] of server.join('').matchAll(/^import .* from '((?:@[\w-]+\/)?[\w-]+)/gm)) {
      const name = imported ?? '';
      assert.ok(
        install?.text.includes(` ${name} `) ||
          install?.text.includes(`/${name.replace('@tessera/', 'tessera-')}-`),
        name,
      );
    }
    const grace = { email: 'grace@acme.test', password: 'a long tutorial password' };
    assert.ok(page.includes(`--email ${grace.email} --password '${grace.password}'`));

    const [serverPort, callbackPort] = [await freePort(), await freePort()];
    const home = mkdtempSync(join(tmpdir(), 'tessera-tutorial-'));
    const project = join(home, 'notes-mcp');
    mkdirSync(project);
    // `npm install` in the project is not run (it needs the registry): its packages are the checkout's.
    symlinkSync(join(REPO, 'node_modules'), join(project, 'node_modules'));
    // As in the checkout: the CLI finds the data dir and reads the running service's URL from it.
    const { TESSERA_URL: _url, ...storage } = cliEnv(tessera);
    const standIns = cliStandIn(home, { ...storage, TESSERA_SECRET: TEST_SECRET });
    const followed: Followed = { running: new Map(), transcript: [] };
    const context = await browser.newContext();
    let signedIn = false;
    try {
      await follow(
        blocks,
        {
          project,
          checkout: REPO,
          env: { PATH: tutorialPath(standIns), HOME: home, CALLBACK_PORT: String(callbackPort) },
          localize: (text) =>
            text
              .replaceAll('localhost:4000', `localhost:${tessera.port}`)
              .replaceAll('localhost:3002', `localhost:${serverPort}`),
          // Step 5: the person opens the address the client printed and signs in.
          waiting: async (name, output) => {
            const address = /open this address to sign in: (\S+)\n/.exec(output)?.[1];
            if (name !== 'client' || signedIn || !address) return;
            signedIn = true;
            const tab = await context.newPage();
            await tab.goto(address);
            await signInAtTessera(tab, `http://127.0.0.1:${callbackPort}/callback`, grace);
            assert.equal(await tab.textContent('body'), 'Signed in: you may close this page.');
          },
        },
        followed,
      );
      assert.ok(signedIn);
      const logs = [...followed.running.values()].map((p) => p.output).join('');
      assert.doesNotMatch(logs, /eyJ|tcs_/, 'no token or secret printed');
    } finally {
      await context.close();
      for (const running of followed.running.values()) stop({ child: running.child, output: () => '' });
      rmSync(home, { recursive: true, force: true });
    }
  });

  test('mcp-server: the MCP SDK client finds Tessera from the 401, registers, signs Ada in, calls the tools', {
    skip,
  }, async () => {
    const port = await freePort();
    const resource = `http://localhost:${port}/mcp`;
    assert.equal((await manage('PATCH', '/settings', { dynamic_registration: true })).status, 200);
    await registerResource(resource, 'Notes', ['notes:read', 'notes:write']);
    const editor = await manage('POST', '/roles', {
      name: 'notes-editor',
      permissions: [
        { resource, scope: 'notes:read' },
        { resource, scope: 'notes:write' },
      ],
    });
    assert.equal(editor.status, 201, editor.text);
    const roles = await manage('PUT', `/users/${adaId}/roles`, {
      roles: [(editor.body as { id: string }).id],
    });
    assert.equal(roles.status, 200, roles.text);
    const server = await startExample(
      'mcp-server',
      ['server.mjs'],
      { TESSERA_ISSUER: issuer, PORT: String(port) },
      `MCP server on ${resource}`,
    );
    const callbackPort = await freePort();
    const callback = `http://127.0.0.1:${callbackPort}/callback`;
    const client = await startExample(
      'mcp-server',
      ['client.mjs'],
      { MCP_SERVER: resource, CALLBACK_PORT: String(callbackPort) },
      'open this address to sign in: ',
    );
    const context = await browser.newContext();
    try {
      const finished = new Promise<number | null>((resolve) => client.child.once('close', resolve));
      const line = /open this address to sign in: (\S+)\n/.exec(client.output());
      const authorize = new URL(line?.[1] ?? assert.fail(client.output()));
      assert.equal(authorize.origin + authorize.pathname, `${issuer}oauth/authorize`);
      assert.equal(authorize.searchParams.get('resource'), resource);
      assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
      assert.ok(authorize.searchParams.get('state'));
      const page = await context.newPage();
      await page.goto(authorize.href);
      await signInAtTessera(page, callback);
      assert.equal(await page.textContent('body'), 'Signed in: you may close this page.');
      assert.equal(await finished, 0, client.output());
      assert.match(client.output(), /\nadd_note: added; you have 1 note\(s\)\nlist_notes: \["buy milk"\]\n$/);

      // A token with notes:read alone cannot add a note, not even inside a JSON-RPC batch.
      const { clientId: reader } = await makeClient(tessera.deps, org, { name: 'Reader', firstParty: true });
      const { accessToken } = await signIn(issuer, reader, EMAIL, undefined, PASSWORD, {
        resource,
        scope: 'notes:read',
      });
      const tool = {
        jsonrpc: '2.0',
        method: 'tools/call',
        params: { name: 'add_note', arguments: { text: 'x' } },
      };
      for (const body of [{ ...tool, id: 1 }, [{ ...tool, id: 2 }]]) {
        const answer = await fetch(resource, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${accessToken}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify(body),
        });
        assert.equal(answer.status, 403);
        assert.deepEqual(await answer.json(), {
          error: 'insufficient_scope',
          error_detail: 'this token lacks the notes:write scope',
        });
      }
      assert.doesNotMatch(server.output() + client.output(), /eyJ/);
    } finally {
      await context.close();
      stop(client);
      stop(server);
    }
  });

  test('nextjs-authjs: built with next build, Auth.js signs Ada in at Tessera (PKCE, state, nonce) and out', {
    skip,
  }, async () => {
    const port = await freePort();
    const app = `http://localhost:${port}`;
    const { clientId, secret } = await makeClient(tessera.deps, org, {
      name: 'Next.js example',
      kind: 'confidential',
      redirectUris: [`${app}/api/auth/callback/tessera`],
    });
    const built = await (nextBuild ?? assert.fail('the Next.js example was not built'));
    assert.equal(built.code, 0, built.stdout + built.stderr);
    // `npm start` (next start) with the README's variables; AUTH_URL as in production.
    const running = await startExample(
      'nextjs-authjs',
      [NEXT, 'start', '--port', String(port), '--hostname', '127.0.0.1'],
      {
        TESSERA_ISSUER: issuer,
        AUTH_TESSERA_ID: clientId,
        AUTH_TESSERA_SECRET: secret as string,
        AUTH_SECRET: 'an Auth.js secret of at least 32 characters',
        AUTH_URL: app,
        NEXT_TELEMETRY_DISABLED: '1',
      },
      'Ready',
    );
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const authorizeRequests: URL[] = [];
      let callback = '';
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.href.startsWith(`${issuer}oauth/authorize`)) authorizeRequests.push(url);
        if (url.href.startsWith(`${app}/api/auth/callback/tessera`)) callback = url.href;
      });
      await page.goto(app);
      assert.equal(await page.textContent('h1'), 'Not signed in');
      await page.click('text=Sign in');
      await signInAtTessera(page, app);
      await page.waitForSelector('text=Signed in as Ada Lovelace');
      // The callback replayed in another browser (a stolen link): no PKCE or state cookie there, no session.
      const thief = await browser.newContext();
      try {
        const stolen = await thief.newPage();
        await stolen.goto(callback);
        await stolen.goto(app);
        assert.equal(await stolen.textContent('h1'), 'Not signed in');
        assert.deepEqual(
          (await thief.cookies(app)).filter((c) => c.name.includes('session-token')),
          [],
        );
      } finally {
        await thief.close();
      }
      assert.equal(await page.textContent('#email'), EMAIL);
      const asked = authorizeRequests[0] ?? assert.fail('the app sent nobody to Tessera');
      assert.equal(asked.searchParams.get('client_id'), clientId);
      assert.equal(asked.searchParams.get('redirect_uri'), `${app}/api/auth/callback/tessera`);
      assert.equal(asked.searchParams.get('code_challenge_method'), 'S256');
      assert.ok(asked.searchParams.get('state'));
      assert.ok(asked.searchParams.get('nonce'));
      // The session is Auth.js's encrypted cookie, HttpOnly; no script reads it.
      const session = (await context.cookies(app)).find((c) => c.name === 'authjs.session-token');
      assert.equal(session?.httpOnly, true);

      await page.click('text=Sign out');
      await page.waitForSelector('text=Not signed in');
      assert.doesNotMatch(running.output(), /eyJ|tcs_/);
    } finally {
      await context.close();
      stop(running);
    }
  });

  test('react-spa: built with Vite, signs Ada in with @tessera/sdk, shows her and calls the invoices API', {
    skip,
  }, async () => {
    const [apiPort, spaPort] = [await freePort(), await freePort()];
    const api = `http://localhost:${apiPort}`;
    const spa = `http://localhost:${spaPort}`;
    const resource = `${api}/invoices`;
    await registerResource(resource, 'Invoices', ['invoices:read', 'invoices:write']);
    const reader = await manage('POST', '/roles', {
      name: 'invoices-reader',
      permissions: [{ resource, scope: 'invoices:read' }],
    });
    assert.equal(reader.status, 201, reader.text);
    const held = (await manage('GET', `/users/${adaId}/roles`)).body as { data: { id: string }[] };
    const roles = [...held.data.map((r) => r.id), (reader.body as { id: string }).id];
    assert.equal((await manage('PUT', `/users/${adaId}/roles`, { roles })).status, 200);
    const { clientId } = await makeClient(tessera.deps, org, {
      name: 'React example',
      kind: 'public',
      redirectUris: [`${spa}/callback`],
    });
    const outDir = mkdtempSync(join(tmpdir(), 'tessera-react-spa-'));
    const vite = join(REPO, 'node_modules', 'vite', 'bin', 'vite.js');
    const apiProcess = await startExample(
      'koa-api',
      ['api.mjs'],
      { TESSERA_ISSUER: issuer, PORT: String(apiPort), ALLOWED_ORIGIN: spa },
      `invoices API on ${api}`,
    );
    let preview: Running | undefined;
    const context = await browser.newContext();
    try {
      // `npm run build`, then `npm run preview`, with the README's settings.
      const started = Date.now();
      const built = await runExample(
        'react-spa',
        [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
        { VITE_TESSERA_ISSUER: issuer, VITE_CLIENT_ID: clientId, VITE_INVOICES_API: api },
      );
      assert.equal(built.code, 0, built.stdout + built.stderr);
      const buildMs = Date.now() - started;
      assert.ok(buildMs < 10_000, `the build took ${buildMs} ms`);
      preview = await startExample(
        'react-spa',
        [vite, 'preview', '--outDir', outDir, '--port', String(spaPort), '--strictPort'],
        {},
        `${spa}/`,
      );
      const page = await context.newPage();
      await page.goto(spa);
      assert.equal(await page.textContent('h1'), 'Not signed in');
      await page.click('text=Sign in');
      await signInAtTessera(page, spa);
      await page.waitForSelector('#user, [role=alert]');
      assert.equal(await page.$('[role=alert]'), null, (await page.textContent('main')) ?? '');
      assert.equal(page.url(), `${spa}/`, 'the code is out of the address bar');
      assert.equal(await page.textContent('#user'), adaId);
      assert.match((await page.textContent('#tenant')) ?? '', /^tnt_/);
      assert.equal(await page.textContent('#scope'), 'invoices:read');
      // Nothing of the sign-in is left in the tab's storage: the tokens live in memory only.
      assert.deepEqual(await page.evaluate(() => [localStorage.length, sessionStorage.length]), [0, 0]);

      await page.click('text=Call the invoices API');
      const answer = (await (await page.waitForSelector('#invoices')).textContent()) ?? '';
      const [status, body] = [answer.slice(0, 3), JSON.parse(answer.slice(4))];
      assert.equal(status, '200');
      assert.deepEqual(body.invoices, [{ id: 'inv_1', amount: 4200, currency: 'EUR' }]);
      assert.deepEqual(body.caller, { user: adaId, tenant: await page.textContent('#tenant') });

      // Sign-out revokes the refresh token at Tessera, from the app's origin.
      const revoked = page.waitForResponse((r) => r.url() === `${issuer}oauth/revoke`);
      await page.click('text=Sign out');
      assert.equal((await revoked).status(), 200);
      await page.waitForSelector('text=Not signed in');
      assert.doesNotMatch(apiProcess.output(), /eyJ/);
    } finally {
      await context.close();
      stop(preview);
      stop(apiProcess);
      rmSync(outDir, { recursive: true, force: true });
    }
  });

  /**
   * An invoices API of another language, started by `start` on `port`: the machine token of a client
   * permitted invoices:read, and a signed-in person's token, each for the API's resource, are let in to
   * GET /invoices and refused POST (403 insufficient_scope); no token, a token for no API, a forged one, 401.
   */
  async function invoicesApiJourney(port: number, start: () => Promise<Running>): Promise<void> {
    const api = `http://localhost:${port}`;
    const resource = `${api}/invoices`;
    await registerResource(resource, 'Invoices', ['invoices:read', 'invoices:write']);
    const { clientId, secret } = await makeClient(tessera.deps, org, {
      name: 'Billing service',
      kind: 'confidential',
      redirectUris: [],
    });
    const permitted = await manage('PUT', `/clients/${clientId}/permissions`, {
      permissions: [{ resource, scope: 'invoices:read' }],
    });
    assert.equal(permitted.status, 200, permitted.text);
    const reader = await manage('POST', '/roles', {
      name: `invoices-reader-${port}`,
      permissions: [{ resource, scope: 'invoices:read' }],
    });
    const held = (await manage('GET', `/users/${adaId}/roles`)).body as { data: { id: string }[] };
    const roles = [...held.data.map((r) => r.id), (reader.body as { id: string }).id];
    assert.equal((await manage('PUT', `/users/${adaId}/roles`, { roles })).status, 200);
    const { clientId: web } = await makeClient(tessera.deps, org, { name: 'Web app', firstParty: true });

    const running = await start();
    try {
      const ask = async (method: string, token: string | null) => {
        const response = await fetch(`${api}/invoices`, {
          method,
          headers: token === null ? {} : { authorization: `Bearer ${token}` },
        });
        return {
          status: response.status,
          challenge: response.headers.get('www-authenticate'),
          body: (await response.json()) as Record<string, unknown>,
        };
      };
      const unauthorized = { error: 'unauthorized', error_detail: "we don't know who you are" };
      assert.deepEqual(await ask('GET', null), {
        status: 401,
        challenge: 'Bearer realm="invoices"',
        body: unauthorized,
      });

      const machine = await tokenRequest(issuer, {
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret as string,
        resource,
        scope: 'invoices:read',
      });
      assert.equal(machine.status, 200, JSON.stringify(machine.body));
      const machineToken = machine.body.access_token as string;
      const invoices = [{ id: 'inv_1', amount: 4200, currency: 'EUR' }];
      assert.deepEqual(await ask('GET', machineToken), {
        status: 200,
        challenge: null,
        body: { caller: { client: clientId }, invoices },
      });
      assert.deepEqual(await ask('POST', machineToken), {
        status: 403,
        challenge: 'Bearer realm="invoices", error="insufficient_scope", scope="invoices:write"',
        body: { error: 'insufficient_scope', error_detail: 'this token lacks the invoices:write scope' },
      });

      const { accessToken } = await signIn(issuer, web, EMAIL, undefined, PASSWORD, {
        resource,
        scope: 'invoices:read',
      });
      const asAda = await ask('GET', accessToken);
      assert.equal(asAda.status, 200);
      assert.equal((asAda.body.caller as { user: string }).user, adaId);

      // Refused alike: a machine token for no API, a token whose signature was changed, and garbage.
      const [header, payload] = machineToken.split('.') as [string, string];
      const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const plain = await tokenRequest(issuer, {
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret as string,
      });
      const forged = `${machineToken.slice(0, -4)}${machineToken.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
      const garbage = [
        'a.b.c',
        `${part({ alg: 'none', typ: 'at+jwt' })}.${payload}.`,
        `${part({ alg: 'RS256', typ: 'at+jwt', kid: 5 })}.${payload}.${machineToken.split('.')[2]}`,
        `${header}.${part([1, 2])}.${machineToken.split('.')[2]}`,
        `${header}.${payload}.x.y.z`,
      ];
      for (const token of [plain.body.access_token as string, forged, ...garbage]) {
        assert.deepEqual(
          await ask('GET', token),
          { status: 401, challenge: 'Bearer realm="invoices", error="invalid_token"', body: unauthorized },
          token,
        );
      }
      assert.doesNotMatch(running.output(), /eyJ/);
    } finally {
      stop(running);
    }
  }

  test('fastapi-authlib: FastAPI with Authlib verifying Tessera access tokens; a scope per route', {
    skip: pythonSkip,
  }, async () => {
    const port = await freePort();
    await invoicesApiJourney(port, () =>
      startExample(
        'fastapi-authlib',
        ['app.py'],
        { TESSERA_ISSUER: issuer, PORT: String(port) },
        `invoices API on http://localhost:${port}`,
        DEBIAN_PYTHON,
      ),
    );
  });

  test('go-oidc: a Go API verifying Tessera access tokens with go-oidc; a scope per route', {
    skip: goSkip,
  }, async () => {
    const built = await (goBuild ?? assert.fail('the Go example was not built'));
    assert.equal(built.code, 0, built.stdout + built.stderr);
    const port = await freePort();
    await invoicesApiJourney(port, () =>
      startExample(
        'go-oidc',
        [],
        { TESSERA_ISSUER: issuer, PORT: String(port) },
        `invoices API on http://localhost:${port}`,
        join(goDir, 'go-oidc'),
      ),
    );
  });
});
