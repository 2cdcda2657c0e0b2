import { addMember, prepareConsoleUser } from '../../../src/domain/directory/members.js';
import { createOrg } from '../../../src/domain/directory/orgs.js';
import { type Org, SYSTEM } from '../../../src/domain/types.js';
import { findConsoleOrg } from '../../../src/storage/repos/orgs.js';
import { FormBrowser } from '../../sign-in/support/browser.js';
import { CALLBACK, makeClient, signIn } from '../../sign-in/support/fixtures.js';
import type { TestServer } from '../../support/server.js';

export const OWNER_PASSWORD = 'owner password 1';

/** Every scope a first-party console client may be granted. */
export const FULL_CONSOLE_SCOPE = 'openid profile email org:read events:read org:write users:impersonate';

/** The console: its issuer, and console tokens for its users through the real sign-in flow. */
export async function consoleOf(server: TestServer) {
  const consoleOrg = await findConsoleOrg(server.db);
  if (!consoleOrg) throw new Error('no console org');
  const { clientId } = await makeClient(server.deps, consoleOrg, { name: 'Console', firstParty: true });
  const issuer = `${server.base}/`;
  return {
    issuer,
    clientId,
    redirectUri: CALLBACK,
    /**
     * A console access token for `email` (password OWNER_PASSWORD) from the first-party client,
     * granted `scope` (every console scope unless narrower).
     */
    async token(email: string, scope = FULL_CONSOLE_SCOPE): Promise<string> {
      return (await signIn(issuer, clientId, email, new FormBrowser(), OWNER_PASSWORD, { scope }))
        .accessToken;
    },
  };
}

/** An org owned by `owner@<slug>.test`. */
export async function ownedOrg(server: TestServer, slug: string): Promise<Org> {
  const { org } = await createOrg(server.deps, {
    slug,
    ownerEmail: `owner@${slug}.test`,
    ownerPassword: OWNER_PASSWORD,
  });
  return org;
}

/** Makes the console user `email` (created when new) a member of `org` with `role`. */
export async function addConsoleMember(
  server: TestServer,
  org: Org,
  email: string,
  role: 'owner' | 'member',
) {
  const ready = await prepareConsoleUser(server.db, { email, password: OWNER_PASSWORD });
  await server.db.transaction().execute((trx) => addMember(trx, org, ready, role, SYSTEM));
}

/**
 * The cast most management suites start with: `acme`, owned by owner@acme.test, with the console
 * user mel@console.test as a member; `beta`, owned by owner@beta.test, a stranger to acme. Each
 * gets a console token with every scope.
 */
export async function ownerMemberStranger(server: TestServer) {
  const acme = await ownedOrg(server, 'acme');
  const beta = await ownedOrg(server, 'beta');
  await addConsoleMember(server, acme, 'mel@console.test', 'member');
  const console_ = await consoleOf(server);
  const { id: ownerId } = await server.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'owner@acme.test')
    .executeTakeFirstOrThrow();
  return {
    acme,
    beta,
    console: console_,
    owner: await console_.token('owner@acme.test'),
    member: await console_.token('mel@console.test'),
    stranger: await console_.token('owner@beta.test'),
    ownerId,
  };
}

/**
 * Accepts an invitation link as someone who has an account there: the page's sign-in form (step
 * `join`, beside the new account's) with `password`. The status of the answer (200 when accepted).
 */
export async function acceptAsConsoleUser(url: string, password: string): Promise<number> {
  const browser = new FormBrowser();
  const page = await (await browser.get(url)).text();
  return (await browser.submit(url, page, { step: 'join', password })).status;
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are asserted field by field
  body: any;
  text: string;
}

/** A request to the console host (path relative to it, query included). */
export async function call(
  server: TestServer,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<JsonResponse> {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.base}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}
