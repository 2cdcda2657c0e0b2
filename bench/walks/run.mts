// The files of packages/server/src whose code runs while one walk is served (docs/architecture.md,
// "The walks, counted"): V8's precise coverage (NODE_V8_COVERAGE), reset just before the walk's
// requests (v8.takeCoverage() writes the counts so far and resets them) and read just after.
// Usage, from the repository's root:
//   mkdir -p /tmp/walk-coverage && NODE_V8_COVERAGE=/tmp/walk-coverage \
//     node --conditions=tessera-source --import tsx bench/walks/run.mts
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';

const root = fileURLToPath(new URL('../..', import.meta.url));
const covDir = process.env.NODE_V8_COVERAGE ?? '';
if (covDir === '') throw new Error('run with NODE_V8_COVERAGE set to a directory');
const t = (p: string) => import(join(root, 'packages/server/test', p));
const { startServer } = await t('support/server.ts');
const { FormBrowser, locationOf, readForm } = await t('sign-in/support/browser.ts');
const { authorizeUrl, makeClient, makeUser, PASSWORD } = await t('sign-in/support/fixtures.ts');
const { ownerMemberStranger, call } = await t('management/support/console.ts');
const { SamlIdp } = await t('federation/support/saml-idp.ts');

function newest(): string {
  const files = readdirSync(covDir).map((f) => join(covDir, f));
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0] as string;
}
/** Resets the counters (the coverage so far is written and ignored). */
const reset = () => v8.takeCoverage();
function ran(): string[] {
  v8.takeCoverage();
  const data = JSON.parse(readFileSync(newest(), 'utf8'));
  const src = `file://${join(root, 'packages/server/src')}/`;
  const out = new Set<string>();
  for (const script of data.result) {
    if (!script.url.startsWith(src)) continue;
    if (script.functions.some((f: { ranges: { count: number }[] }) => (f.ranges[0]?.count ?? 0) > 0))
      out.add(script.url.slice(src.length));
  }
  return [...out].sort();
}
function report(name: string, files: string[]) {
  console.log(`\n== ${name}: ${files.length} files`);
  for (const f of files) console.log(`   ${f}`);
}

const server = await startServer({ env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' }, webhooks: false });
try {
  const { acme, owner } = await ownerMemberStranger(server);
  const issuer = server.issuer('acme');
  const { clientId } = await makeClient(server.deps, acme, { name: 'Acme Notes', firstParty: true });
  await makeUser(server.deps, acme, 'ada@acme.test');

  // A password sign-in: POST /login of a pending request → 303 to the client with a code.
  {
    const browser = new FormBrowser();
    const { url } = authorizeUrl(issuer, clientId, { scope: 'openid' });
    const loginUrl = locationOf(await browser.get(url), url);
    const page = await (await browser.get(loginUrl)).text();
    const form = readForm(page);
    reset();
    const res = await browser.post(new URL(form.action, loginUrl).href, {
      ...form.hidden,
      email: 'ada@acme.test',
      password: PASSWORD,
    });
    const files = ran();
    if (res.status !== 303 || !(res.headers.get('location') ?? '').includes('code='))
      throw new Error(`password: ${res.status}`);
    report('a password sign-in (POST /login → the code)', files);
  }

  // A SAML response: POST /saml/{con}/acs, then POST /sso/{con}/continue → 303 to the client.
  {
    const idp = await SamlIdp.start();
    const made = await call(server, 'POST', '/organizations/acme/connections', owner, {
      type: 'saml',
      name: 'Corp IdP',
      jit: true,
      domains: ['corp.test'],
      metadata_xml: idp.metadata(),
    });
    const saml = made.body;
    idp.trustSp(await (await fetch(saml.sp_metadata_url)).text());
    const browser = new FormBrowser();
    const { url } = authorizeUrl(issuer, clientId, { scope: 'openid' });
    const loginUrl = locationOf(await browser.get(url), url);
    const reqId = new URL(loginUrl).searchParams.get('req') ?? '';
    const start = await browser.get(`${issuer}sso/${saml.id}/start?req=${reqId}`);
    const request = await idp.parseRequest(start.headers.get('location') ?? '');
    const response = await idp.respond(request, 'alice@corp.test');
    reset();
    const acs = await browser.post(saml.acs_url, { SAMLResponse: response });
    const form = readForm(await acs.text());
    const done = await browser.post(new URL(form.action, issuer).href, form.hidden);
    const files = ran();
    if (done.status !== 303 || !(done.headers.get('location') ?? '').includes('code='))
      throw new Error(`saml: ${done.status}`);
    report('a SAML response (POST /saml/{con}/acs, POST /sso/{con}/continue → the code)', files);
    await idp.close();
  }
} finally {
  await server.close();
}
