import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Org } from '../../src/domain/types.js';
import { FormBrowser, locationOf, signInThroughPages } from '../sign-in/support/browser.js';
import { makeClient, makeUser, PASSWORD, signIn } from '../sign-in/support/fixtures.js';
import { cleanNpmEnv, npmCacheSkip } from '../support/environment.js';
import { orgWithMachineClient } from '../support/fixtures.js';
import { freePort, startServer, type TestServer } from '../support/server.js';
import { killAll, spawnGroup } from '../support/tessera-process.js';

/**
 * What a user installs: `@tessera/koa` and `@tessera/sdk` packed as npm would publish them, installed into a
 * scratch app outside the repository the way the READMEs say (`npm install ./tessera-sdk-<version>.tgz`), with
 * `--offline`, so every runtime dependency comes from npm's cache and the test needs no network, and the
 * examples of their READMEs run there with plain `node` (no TypeScript loader, no source condition) against a
 * running Tessera. The READMEs are read at test time, so they stay the source of truth: each example is the
 * fenced js block whose first line is `// example: <name>`. `npm publish --dry-run` checks what a release would
 * upload, against a registry address nothing answers at, so it can never publish.
 */

const repo = new URL('../../../../', import.meta.url).pathname;
const PACKAGES = [
  { name: '@tessera/koa', dir: 'packages/koa', examples: ['koa', 'koa-client'] },
  { name: '@tessera/sdk', dir: 'packages/sdk', examples: ['sdk', 'sdk-sign-in'] },
] as const;
/** Nothing listens here: a publish that was not a dry run would fail, not publish. */
const NO_REGISTRY = 'http://127.0.0.1:9/';
/** What an app may import from each package: the public API, and nothing else. */
const EXPORTS = {
  '@tessera/koa': [
    'TokenMinterError',
    'authenticate',
    'createTokenMinter',
    'createVerifier',
    'principalOf',
    'protectedResource',
    'requireScopes',
    'whitelist',
  ],
  '@tessera/sdk': ['SdkError', 'challengeOf', 'createPkce', 'createSdk', 'createState', 'makeVerifier'],
} as const;
const UNAUTHORIZED = { error: 'unauthorized', error_detail: "we don't know who you are" };

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function finish(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Finished> {
  const result = await finish(spawnGroup(command, args, { cwd, env }));
  if (result.code !== 0) {
    assert.fail(`${command} ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

/** Starts a long-running example and resolves once it has printed `ready` on stdout. */
function serveExample(
  file: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  ready: string,
): Promise<ChildProcess> {
  const child = spawnGroup(process.execPath, [file], { cwd, env });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes(ready)) resolve(child);
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`${file} exited ${code} before "${ready}":\n${stdout}${stderr}`)),
    );
  });
}

/** The fenced js blocks of a README marked `// example: <name>`, by name. */
function examplesOf(readme: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of readme.matchAll(/^```js\n(\/\/ example: ([\w-]+)\n[\s\S]*?)^```$/gm)) {
    found.set(match[2] as string, match[1] as string);
  }
  return found;
}

/** A process environment with nothing of the test runner's in it (no loader, no source condition). */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

/** What the app installs besides the tarballs (and what the tarballs depend on), resolved from npm's cache. */
const JOSE = JSON.parse(readFileSync(join(repo, 'packages/sdk/package.json'), 'utf8')).dependencies.jose;
const skip = npmCacheSkip(['koa', `jose@${JOSE}`]);

describe('the packed @tessera/koa and @tessera/sdk, installed in an app outside the repository', {
  skip,
}, () => {
  let scratch: string;
  let app: string;
  const tarballs = new Map<string, string>();
  const files = new Map<string, string[]>();
  let tessera: TestServer;
  let org: Org;
  let issuer: string;
  let machine: { clientId: string; clientSecret: string };
  let web: { clientId: string };
  let tenantId: string;
  let appPort: number;
  let tesseraEnv: Record<string, string>;
  let npmEnv: NodeJS.ProcessEnv;

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'tessera-packed-'));
    const packs = join(scratch, 'packs');
    app = join(scratch, 'app');
    mkdirSync(packs);
    mkdirSync(app);
    // Without the npm_* settings of an enclosing `npm test` (its local prefix is the repository) or a loader.
    npmEnv = cleanNpmEnv();

    // Packing runs each package's prepack, which builds it.
    const packed = await run(
      'npm',
      ['pack', '--json', '--pack-destination', packs, ...PACKAGES.flatMap((p) => ['-w', p.dir])],
      repo,
      npmEnv,
    );
    const json = packed.stdout.slice(packed.stdout.indexOf('['));
    for (const entry of JSON.parse(json) as { name: string; filename: string }[]) {
      tarballs.set(entry.name, join(packs, entry.filename));
    }
    for (const { name } of PACKAGES) {
      const tarball = tarballs.get(name) ?? assert.fail(`npm pack made no tarball of ${name}`);
      const listed = await run('tar', ['-tzf', tarball], scratch, npmEnv);
      files.set(name, listed.stdout.split('\n').filter(Boolean));
    }

    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'scratch-app', private: true, type: 'module' }),
    );
    // As the READMEs say: the tarballs and koa itself, every package from npm's cache.
    await run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', ...tarballs.values(), 'koa'],
      app,
      npmEnv,
    );
    for (const { dir, examples } of PACKAGES) {
      const found = examplesOf(readFileSync(join(repo, dir, 'README.md'), 'utf8'));
      for (const name of examples) {
        const code = found.get(name) ?? assert.fail(`${dir}/README.md has no "// example: ${name}" block`);
        writeFileSync(join(app, `${name}.mjs`), code);
      }
    }

    tessera = await startServer();
    const acme = await orgWithMachineClient(tessera.deps, 'acme');
    ({ org, issuer } = acme);
    machine = { clientId: acme.clientId, clientSecret: acme.clientSecret };
    appPort = await freePort();
    web = await makeClient(tessera.deps, org, {
      name: 'Example app',
      // The sign-in example's own callback, and the fixtures' (for a user token of the Koa example).
      redirectUris: [`http://localhost:${appPort}/callback`, 'http://127.0.0.1:8765/callback'],
    });
    const ada = await makeUser(tessera.deps, org, 'ada@acme.test');
    tenantId = ada.tenant.id;
    tesseraEnv = {
      TESSERA_API: tessera.base,
      TESSERA_ISSUER: issuer,
      TESSERA_CLIENT_ID: machine.clientId,
      TESSERA_CLIENT_SECRET: machine.clientSecret,
      TESSERA_WEB_CLIENT_ID: web.clientId,
    };
  });

  after(async () => {
    killAll();
    await tessera?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test('each tarball holds the built package, its README and LICENSE, and no sources', async () => {
    for (const { name } of PACKAGES) {
      const listed = files.get(name) ?? [];
      for (const required of [
        'package/package.json',
        'package/README.md',
        'package/LICENSE',
        'package/dist/index.js',
        'package/dist/index.d.ts',
      ]) {
        assert.ok(listed.includes(required), `${name} lacks ${required}`);
      }
      assert.deepEqual(
        listed.filter((f) => f.startsWith('package/src/') || (f.endsWith('.ts') && !f.endsWith('.d.ts'))),
        [],
        `${name} ships sources`,
      );
      assert.deepEqual(
        listed.filter((f) => f.endsWith('.tsbuildinfo')),
        [],
        `${name} ships build state`,
      );
      // A source map may ship only with the sources it names.
      for (const map of listed.filter((f) => f.endsWith('.map'))) {
        const text = await run('tar', ['-xzOf', tarballs.get(name) as string, map], scratch, cleanEnv({}));
        const { sources = [] } = JSON.parse(text.stdout) as { sources?: string[] };
        for (const source of sources) {
          const resolved = posix.normalize(posix.join(posix.dirname(map), source));
          assert.ok(
            listed.includes(resolved),
            `${name}: ${map} names ${source}, which is not in the package`,
          );
        }
      }
    }
  });

  test('each tarball holds only dist/, README.md, LICENSE and package.json', () => {
    for (const { name } of PACKAGES) {
      const listed = files.get(name) ?? [];
      assert.deepEqual(
        listed.filter(
          (f) =>
            !f.startsWith('package/dist/') &&
            !['package/README.md', 'package/LICENSE', 'package/package.json'].includes(f),
        ),
        [],
        `${name} ships more than its build, README, LICENSE and package.json`,
      );
    }
  });

  test('the installed packages bring their runtime dependencies and none of their development ones', () => {
    for (const { name } of PACKAGES) {
      const manifest = JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
        publishConfig?: { access?: string };
      };
      assert.deepEqual(Object.keys(manifest.dependencies ?? {}), ['jose'], `${name}'s runtime dependencies`);
      assert.deepEqual(
        manifest.publishConfig,
        { access: 'public' },
        `${name} publishes as a public scoped package`,
      );
    }
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const installed = Object.keys(lock.packages).filter(Boolean);
    // The repository's tools (the compiler, the test loader, the linter, the server) stay out of the app.
    for (const tool of ['typescript', 'tsx', '@biomejs/biome', '@tessera/server', '@types/node', 'esbuild']) {
      assert.ok(!installed.includes(`node_modules/${tool}`), `the app got ${tool}`);
    }
    assert.deepEqual(
      installed.filter((path) => lock.packages[path]?.dev),
      [],
      'the app holds development dependencies',
    );
  });

  test('plain Node imports each package, which exports its public API and nothing else', async () => {
    const script = `for (const name of ${JSON.stringify(Object.keys(EXPORTS))}) console.log(name, JSON.stringify(Object.keys(await import(name)).sort()));`;
    const result = await run(process.execPath, ['--input-type=module', '-e', script], app, cleanEnv({}));
    assert.equal(
      result.stdout,
      Object.entries(EXPORTS)
        .map(([name, names]) => `${name} ${JSON.stringify(names)}\n`)
        .join(''),
    );
  });

  test("TypeScript sees both packages' types in the app: a well-typed use compiles, a misuse is an error", async () => {
    // A TypeScript app adds @types/koa, as the koa README says; npm's cache here has Koa but not its types, so
    // the app's compiler is pointed at the checkout's copy of them instead of installing it.
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          noEmit: true,
          paths: { koa: [join(repo, 'node_modules', '@types', 'koa', 'index.d.ts')] },
        },
        files: ['typed.ts'],
      }),
    );
    writeFileSync(
      join(app, 'typed.ts'),
      [
        "import Koa from 'koa';",
        "import { authenticate, createVerifier, principalOf, type Verified } from '@tessera/koa';",
        "import { createSdk, type Sdk } from '@tessera/sdk';",
        "const issuer = 'http://acme.localhost:4000/';",
        "const sdk: Sdk = createSdk({ api: 'http://localhost:4000', issuer, clientId: 'cli_web' });",
        "const verify = createVerifier({ issuer, clientId: 'cli_web' });",
        'const app = new Koa();',
        "app.use(authenticate({ verify, realm: 'api' }));",
        'app.use((ctx) => {',
        '  const who: Verified = principalOf(ctx);',
        '  ctx.body = who.kind;',
        '});',
        'const misuse: number = sdk;',
        'export { misuse };',
        '',
      ].join('\n'),
    );
    const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await finish(
      spawnGroup(process.execPath, [tsc, '-p', '.'], { cwd: app, env: cleanEnv({}) }),
    );
    // Exactly the one planted error: the packages' declarations and their use type-check.
    assert.equal(checked.code, 2, checked.stdout);
    assert.equal(
      checked.stdout.trim(),
      "typed.ts(13,7): error TS2322: Type 'Sdk' is not assignable to type 'number'.",
    );
  });

  test("npm publish --dry-run of each package would upload the tarball's files, publicly, with no registry", async () => {
    for (const { name, dir } of PACKAGES) {
      // One package a run: given several, npm writes one JSON document after another.
      const published = await run(
        'npm',
        ['publish', '--dry-run', '--offline', '--json', '--registry', NO_REGISTRY, '-w', dir],
        repo,
        npmEnv,
      );
      const report = JSON.parse(published.stdout.slice(published.stdout.indexOf('{'))) as Record<
        string,
        { files: { path: string }[] }
      >;
      const entry = report[name] ?? assert.fail(`npm publish --dry-run reported nothing of ${name}`);
      assert.deepEqual(
        entry.files.map((f) => `package/${f.path}`).sort(),
        [...(files.get(name) ?? [])].sort(),
        `${name}: the dry run would publish other files than npm pack packed`,
      );
      assert.match(
        published.stderr,
        /Publishing to http:\/\/127\.0\.0\.1:9\/ with tag latest and public access \(dry-run\)/,
      );
    }
  });

  test('the SDK example prints a verified machine token of the demo client, then a refusal', async () => {
    const result = await run(process.execPath, ['sdk.mjs'], app, cleanEnv(tesseraEnv));
    assert.equal(
      result.stdout,
      `${machine.clientId} holds a client token of ${issuer}, valid for 900 s\nrefused: 401 invalid_client\n`,
    );
    assert.equal(result.stderr, '');
  });

  test('the Koa example answers 401 without a token and 200 to the demo client through the client example', async () => {
    const apiPort = await freePort();
    const api = `http://localhost:${apiPort}`;
    const koaApi = await serveExample(
      'koa.mjs',
      app,
      cleanEnv({ ...tesseraEnv, PORT: String(apiPort) }),
      `invoices API on ${api}`,
    );
    let logged = '';
    koaApi.stderr?.on('data', (chunk: Buffer) => {
      logged += chunk.toString();
    });

    const anonymous = await fetch(`${api}/invoices`);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="invoices-api"');
    assert.deepEqual(await anonymous.json(), UNAUTHORIZED);
    // The example's onRefused says why in its own log; the 401 above said nothing. (Its stderr may
    // reach this process after the response did: wait for the line, up to the test's timeout.)
    while (!logged.includes('\n')) await new Promise((resolve) => koaApi.stderr?.once('data', resolve));
    assert.match(logged, /^401 GET \/invoices: no_token: no Authorization: Bearer header/m);
    const health = await fetch(`${api}/health`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { ok: true });

    // The billing example mints with the demo client through the loopback host override and calls the API.
    const billing = await run(
      process.execPath,
      ['koa-client.mjs'],
      app,
      cleanEnv({ ...tesseraEnv, INVOICES_API: api }),
    );
    assert.equal(billing.stdout, `${JSON.stringify({ caller: machine.clientId, invoices: [] })}\n`);

    // A signed-in user of the web client is let in too, in the tenant the token names.
    const { accessToken } = await signIn(issuer, web.clientId, 'ada@acme.test');
    const asUser = await fetch(`${api}/invoices`, { headers: { authorization: `Bearer ${accessToken}` } });
    assert.equal(asUser.status, 200);
    const body = (await asUser.json()) as { tenant: string; requestedBy: string; invoices: unknown[] };
    assert.equal(body.tenant, tenantId);
    assert.match(body.requestedBy, /^usr_/);
    assert.deepEqual(body.invoices, []);
  });

  test('the SDK sign-in example signs a user in and shows them, their tenants and the acting tenant', async () => {
    const site = `http://localhost:${appPort}`;
    await serveExample(
      'sdk-sign-in.mjs',
      app,
      cleanEnv({ ...tesseraEnv, PORT: String(appPort) }),
      `open ${site}/login`,
    );
    const login = await fetch(`${site}/login`, { redirect: 'manual' });
    assert.equal(login.status, 302);
    const authorize = locationOf(login, `${site}/login`);
    assert.ok(authorize.startsWith(`${tessera.base}/oauth/authorize?`), authorize);

    const callback = await signInThroughPages(new FormBrowser(), authorize, {
      email: 'ada@acme.test',
      password: PASSWORD,
    });
    assert.ok(callback.startsWith(`${site}/callback?`), callback);
    const back = await fetch(callback, { redirect: 'manual' });
    assert.equal(back.status, 302);
    assert.equal(back.headers.get('location'), '/');

    const home = await fetch(`${site}/`, { redirect: 'manual' });
    assert.equal(home.status, 200);
    assert.deepEqual(await home.json(), {
      me: {
        email: 'ada@acme.test',
        firstName: 'Ada',
        lastName: 'Lovelace',
        picture: null,
        provider: 'password',
      },
      tenants: [{ id: tenantId, name: 'Personal', role: 'owner', logo: null }],
      actingIn: tenantId,
    });

    const loggedOut = await fetch(`${site}/logout`, { redirect: 'manual' });
    assert.equal(loggedOut.status, 302);
    assert.equal(loggedOut.headers.get('location'), '/login');
  });
});
