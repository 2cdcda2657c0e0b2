// The one entry after any way of signing in (domain/sign-in/complete-authentication.ts) and the code
// flow's steps after it (authorization-steps.ts), called as the hosted pages call them, without HTTP:
// each outcome the pages render (an answer to the client, a page of the flow, a second step due), the
// sign-in it makes or withholds, and what it leaves stored (the request completed or closed, the
// browser session). The pages' own suites hold the same flows through the browser and HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { sha256 } from '../../src/crypto/random.js';
import { clock } from '../../src/domain/clock.js';
import { createClient } from '../../src/domain/directory/clients.js';
import { updateOrgSettings } from '../../src/domain/directory/org-settings.js';
import { createOrg } from '../../src/domain/directory/orgs.js';
import { createUser } from '../../src/domain/directory/users.js';
import { issuerOf } from '../../src/domain/issuers.js';
import {
  type AuthorizeParams,
  authorizeRequest,
  completeAuthentication,
  continueAuthorization,
  decideConsent,
  loadAuthorizationRequest,
  MFA_SIGN_IN,
  PASSWORD_SIGN_IN,
  type PendingAuthorization,
  resumeBrowserSession,
  type SignInOutcome,
} from '../../src/domain/sign-in/index.js';
import { ACR_IMPERSONATION, BROWSER_SESSION_TTL_MS } from '../../src/domain/tokens-policy.js';
import { type Client, type Org, SYSTEM, type User } from '../../src/domain/types.js';
import type { Runtime } from '../../src/runtime.js';
import { opened } from '../../src/storage/opened.js';
import { withClockAhead } from '../support/clock.js';
import { openTestRuntime } from '../support/runtime.js';

const CALLBACK = 'https://notes.test/cb';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbkRjWI2jjc0';

describe('completeAuthentication: the outcomes of a sign-in, without HTTP', () => {
  let runtime: Runtime & { dataDir: string };
  let deps: Runtime['deps'];
  let acme: Org;
  let owner: User;
  let ada: User;
  let firstParty: Client;
  let thirdParty: Client;

  before(async () => {
    runtime = await openTestRuntime('sqlite');
    deps = runtime.deps;
    ({ org: acme, owner } = await createOrg(deps, {
      slug: 'acme',
      ownerEmail: 'owner@acme.test',
      ownerPassword: 'an owner password of some length',
    }));
    ({ user: ada } = await createUser(
      deps,
      acme,
      { email: 'ada@acme.test', password: 'correct horse battery staple' },
      SYSTEM,
    ));
    const client = (name: string, first: boolean) =>
      createClient(deps, acme, { name, kind: 'public', redirectUris: [CALLBACK], firstParty: first }, SYSTEM);
    firstParty = (await client('Notes', true)).client;
    thirdParty = (await client('Elsewhere', false)).client;
  });

  after(() => runtime?.close());

  /** A request /oauth/authorize accepted, as the pages load it. */
  async function accepted(
    client: Client,
    extra: AuthorizeParams = {},
    org: Org = acme,
  ): Promise<PendingAuthorization> {
    const params: AuthorizeParams = {
      response_type: 'code',
      client_id: client.id,
      redirect_uri: CALLBACK,
      state: 'st-1',
      scope: 'openid',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      ...extra,
    };
    const outcome = await authorizeRequest(deps, org, { params, repeated: [], resources: [] });
    assert.ok(outcome.kind === 'accepted', outcome.kind);
    const pending = await loadAuthorizationRequest(deps, org, outcome.pending.request.id);
    assert.ok(pending);
    return pending;
  }

  /** The query of an answer redirected to the client. */
  function answered(outcome: SignInOutcome): URLSearchParams {
    assert.equal(outcome.kind, 'answer');
    assert.ok(outcome.kind === 'answer' && 'redirect' in outcome.answer, 'a redirect');
    const url = new URL(outcome.answer.redirect);
    assert.equal(`${url.origin}${url.pathname}`, CALLBACK);
    return url.searchParams;
  }

  /** Ada's password sign-in, for `pending` (null: no request). */
  const signIn = (pending: PendingAuthorization | null) =>
    completeAuthentication(deps, acme, { user: ada, method: PASSWORD_SIGN_IN }, pending);

  test('a password sign-in for a first-party client: signed in, and back to the client with a code, state and iss', async () => {
    const pending = await accepted(firstParty);
    const { signedIn, outcome } = await completeAuthentication(
      deps,
      acme,
      { user: ada, method: PASSWORD_SIGN_IN },
      pending,
    );
    const query = answered(outcome);
    assert.match(query.get('code') ?? '', /^tac_/);
    assert.equal(query.get('state'), 'st-1');
    assert.equal(query.get('iss'), issuerOf(deps.config, acme));
    assert.ok(signedIn, 'a browser session');
    assert.ok(signedIn.deviceToken?.startsWith(`${ada.id}.`), 'a device token naming ada');
    assert.ok(signedIn.maxAgeMs > 0 && signedIn.maxAgeMs <= 12 * 3_600_000);
    const resumed = await resumeBrowserSession(deps, acme, signedIn.secret);
    assert.equal(resumed?.user.id, ada.id);
    assert.deepEqual(resumed?.amr, ['pwd']);
    // The request completed with its code: no longer pending, and a second completion is refused.
    assert.equal(await loadAuthorizationRequest(deps, acme, pending.request.id), null);
    await assert.rejects(
      completeAuthentication(deps, acme, { user: ada, method: PASSWORD_SIGN_IN }, pending),
      { code: 'invalid_request', detail: 'this sign-in was already completed' },
    );
  });

  test('a third-party client: the consent page first; Deny answers access_denied and closes the request', async () => {
    const pending = await accepted(thirdParty);
    const { signedIn, outcome } = await completeAuthentication(
      deps,
      acme,
      { user: ada, method: PASSWORD_SIGN_IN },
      pending,
    );
    assert.deepEqual(outcome, { kind: 'page', page: 'consent', requestId: pending.request.id });
    assert.ok(signedIn);
    const denied = answered(await decideConsent(deps, acme, pending, signedIn.session, 'deny'));
    assert.equal(denied.get('error'), 'access_denied');
    assert.equal(denied.get('state'), 'st-1');
    assert.equal(denied.get('code'), null);
    await assert.rejects(decideConsent(deps, acme, pending, signedIn.session, 'allow'), {
      code: 'invalid_request',
    });
  });

  test('an owner impersonating: no consent asked of a third-party client, no device token for the owner’s browser', async () => {
    const pending = await accepted(thirdParty);
    const method = {
      amr: [],
      acr: ACR_IMPERSONATION,
      impersonation: {
        id: 'imp_test',
        actorId: owner.id,
        reason: 'support ticket 7',
        clientId: thirdParty.id,
        expiresAt: clock.now() + 3_600_000,
      },
    };
    const { signedIn, outcome } = await completeAuthentication(deps, acme, { user: ada, method }, pending);
    assert.match(answered(outcome).get('code') ?? '', /^tac_/);
    assert.equal(signedIn?.deviceToken, null);
    assert.equal(signedIn?.session.actorId, owner.id);
  });

  test('where the org requires a second factor, a password alone signs nothing in: enrolment is due', async () => {
    const { org: strict } = await createOrg(deps, {
      slug: 'strict',
      ownerEmail: 'owner@strict.test',
      ownerPassword: 'an owner password of some length',
    });
    await updateOrgSettings(deps, strict, { requireMfa: true }, SYSTEM);
    const { user: bob } = await createUser(
      deps,
      strict,
      { email: 'bob@strict.test', password: 'correct horse battery staple' },
      SYSTEM,
    );
    const { client } = await createClient(
      deps,
      strict,
      { name: 'Notes', kind: 'public', redirectUris: [CALLBACK], firstParty: true },
      SYSTEM,
    );
    const pending = await accepted(client, {}, strict);
    const before = clock.now();
    const { signedIn, outcome } = await completeAuthentication(
      deps,
      strict,
      { user: bob, method: PASSWORD_SIGN_IN },
      pending,
    );
    assert.equal(signedIn, null);
    assert.equal(outcome.kind, 'second-factor');
    assert.ok(outcome.kind === 'second-factor');
    assert.equal(outcome.step, 'enrol');
    assert.equal(outcome.userId, bob.id);
    assert.equal(outcome.requestId, pending.request.id);
    assert.ok(outcome.until >= before + 10 * 60_000 && outcome.until <= clock.now() + 10 * 60_000);
    // The second step taken (MFA_SIGN_IN), the request goes on to its code.
    const done = await completeAuthentication(deps, strict, { user: bob, method: MFA_SIGN_IN }, pending);
    assert.match(answered(done.outcome).get('code') ?? '', /^tac_/);
    assert.equal(done.signedIn?.session.acr, MFA_SIGN_IN.acr);
  });

  test('form_post: answered as the post page; by a link, through the login page; after another page, the login page', async () => {
    const pending = await accepted(firstParty, { response_mode: 'form_post' });
    const id = pending.request.id;
    const proven = { user: ada, method: PASSWORD_SIGN_IN };
    const byLink = await completeAuthentication(deps, acme, proven, pending, 'link');
    assert.deepEqual(byLink.outcome, { kind: 'page', page: 'login', requestId: id });
    const later = await completeAuthentication(deps, acme, proven, pending, 'login-page');
    assert.deepEqual(later.outcome, { kind: 'page', page: 'login', requestId: id });
    const { outcome } = await completeAuthentication(deps, acme, proven, pending);
    assert.equal(outcome.kind, 'answer');
    assert.ok(outcome.kind === 'answer' && 'formPost' in outcome.answer);
    const { action, fields } = outcome.answer.formPost;
    assert.equal(action, CALLBACK);
    assert.deepEqual(
      fields.map(([name]) => name),
      ['code', 'state', 'iss'],
    );
  });

  test('no request: signed in, and the login page says so', async () => {
    const { signedIn, outcome } = await signIn(null);
    assert.deepEqual(outcome, { kind: 'page', page: 'login', requestId: null });
    assert.ok(signedIn?.secret.startsWith('tbs_'));
  });

  test('expired browser sessions are deleted once a sign-in has committed; a sign-in rolled back deletes nothing and leaves the purge due', async () => {
    const stored = async (secret: string) =>
      (
        await opened(deps.store)
          .selectFrom('browser_sessions')
          .select('token_hash')
          .where('token_hash', '=', sha256(secret))
          .execute()
      ).length;
    const old = await signIn(null);
    assert.ok(old.signedIn);
    const completed = await accepted(firstParty);
    await signIn(completed);
    // Past the old session's end, and past the minute any earlier purge of this process counts for.
    await withClockAhead(BROWSER_SESSION_TTL_MS + 5 * 60_000, async () => {
      // The request is completed already: refused inside the sign-in's transaction, which rolls back.
      await assert.rejects(signIn(completed), { detail: 'this sign-in was already completed' });
      assert.equal(await stored(old.signedIn?.secret ?? ''), 1, 'a rolled-back sign-in deleted nothing');
      // The purge was not counted as done: the next sign-in, within the same minute, deletes it.
      const next = await signIn(null);
      assert.equal(await stored(old.signedIn?.secret ?? ''), 0, 'deleted after the commit');
      assert.ok(next.signedIn && (await stored(next.signedIn.secret)) === 1, 'the new session is kept');
    });
  });

  test('a purge that fails after the sign-in committed fails nothing: the person is signed in', async () => {
    const db = opened(deps.store);
    // The purge's second delete (the clients of expired sign-ins) finds no table: it fails.
    await sql`alter table session_clients rename to session_clients_away`.execute(db);
    try {
      // Past the minute any earlier purge of this process counts for: this sign-in's purge is due.
      const { signedIn, outcome } = await withClockAhead(10 * 60_000, () => signIn(null));
      assert.deepEqual(outcome, { kind: 'page', page: 'login', requestId: null });
      assert.ok(signedIn);
      assert.equal((await resumeBrowserSession(deps, acme, signedIn.secret))?.user.id, ada.id);
    } finally {
      await sql`alter table session_clients_away rename to session_clients`.execute(db);
    }
  });

  test('prompt=none with nobody signed in: login_required back to the client, and the request is closed', async () => {
    const pending = await accepted(firstParty, { prompt: 'none' });
    const query = answered(await continueAuthorization(deps, acme, pending, null));
    assert.equal(query.get('error'), 'login_required');
    assert.equal(query.get('error_description'), 'nobody is signed in');
    assert.equal(await loadAuthorizationRequest(deps, acme, pending.request.id), null);
    // Without prompt=none the same request would have gone to the login page.
    const open = await accepted(firstParty);
    assert.deepEqual(await continueAuthorization(deps, acme, open, null), {
      kind: 'page',
      page: 'login',
      requestId: open.request.id,
    });
  });
});
