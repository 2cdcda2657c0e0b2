import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { OPERATIONS } from '../../src/http/declarations.js';
import { AnswerChecker, checkAnswers, MISMATCH_ERROR } from '../support/answer-check.js';
import { startServer, type TestServer } from '../support/server.js';

const operation = (operationId: string) => {
  const op = OPERATIONS.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return op;
};

/** A user as GET /organizations/{org}/users answers it. */
const USER = {
  id: 'usr_0123456789abcdef',
  email: 'ada@acme.test',
  first_name: 'Ada',
  last_name: null,
  disabled: false,
  created_at: '2026-11-29T09:00:00.000Z',
  middle_name: null,
  nickname: null,
  preferred_username: null,
  profile: null,
  picture: null,
  website: null,
  gender: null,
  birthdate: null,
  zoneinfo: null,
  locale: null,
  phone_number: null,
  phone_number_verified: false,
  address: null,
  updated_at: '2026-11-29T09:00:00.000Z',
};

// Every test server checks every answer of a declared operation against its declaration
// (test/support/server.ts); this suite plants answers that do not match and reads what is said.
describe('answers checked against their declarations', () => {
  let server: TestServer;
  let checker: AnswerChecker;
  const listUsers = operation('listUsers');
  const check = (status: number, body: unknown, type = 'application/json; charset=utf-8') =>
    checker.problemOf(listUsers, status, type, typeof body === 'string' ? body : JSON.stringify(body));

  before(async () => {
    server = await startServer({ checkAnswers: true });
    checker = new AnswerChecker(server.config);
  });
  after(() => server.close());

  test('an answer as declared passes; a wrong, missing or undeclared field is named', () => {
    assert.equal(check(200, [USER]), null);
    assert.equal(check(200, []), null);
    assert.equal(check(200, [{ ...USER, email: 42 }]), '/0/email must be string');
    const { created_at: _, ...withoutCreated } = USER;
    assert.equal(
      check(200, [withoutCreated]),
      '/0 must have required property \'created_at\' ("created_at")',
    );
    assert.equal(
      check(200, [{ ...USER, password: 'hunter2!' }]),
      '/0 must NOT have additional properties ("password")',
    );
    assert.equal(
      check(200, [{ ...USER, created_at: 'yesterday' }]),
      '/0/created_at must match format "date-time" ("date-time")',
    );
    // The refusals have the API's body: `error_description` is OAuth's, not the management API's.
    assert.equal(check(404, { error: 'not_found', error_detail: 'no such org' }), null);
    assert.equal(
      check(404, { error: 'not_found', error_description: 'no such org' }),
      '(body) must NOT have additional properties ("error_description")',
    );
  });

  test('a status the operation does not declare, or a body in another form, is named', () => {
    assert.equal(
      check(418, { error: 'teapot' }),
      'status 418 is not declared (declared: 200, 400, 401, 403, 404, 503)',
    );
    assert.equal(check(200, 'not json'), 'the body is not JSON');
    assert.equal(check(200, '<p>users</p>', 'text/html'), 'declared application/json, answered text/html');
    // An answer a declaration gives another content type: userinfo's signed JWT.
    assert.equal(checker.problemOf(operation('userinfoGet'), 200, 'application/jwt', 'e30.e30.sig'), null);
    // A status without a JSON body declared and answered without one (a redirect) is not checked.
    assert.equal(checker.problemOf(operation('authorize'), 302, '', ''), null);
  });

  test('a planted wrong field fails the call that got it: a 500 naming the operation, status and schema error', async () => {
    // The app as the server builds it, with one hook ahead of the check: it drops a required field
    // of the key set GET /.well-known/jwks.json answers.
    const app: FastifyInstance = buildApp(server.deps);
    const lines: string[] = [];
    let plant = true;
    app.addHook('onSend', async (request, _reply, payload) =>
      plant && request.url.startsWith('/.well-known/jwks.json') && typeof payload === 'string'
        ? JSON.stringify({ ...JSON.parse(payload), keys: undefined })
        : payload,
    );
    const planted = new AnswerChecker(server.config);
    checkAnswers(app, planted, (line) => lines.push(line));
    await app.ready();
    try {
      const host = `localhost:${server.port}`;
      const wrong = await app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host } });
      assert.equal(wrong.statusCode, 500);
      const detail =
        'answer not as declared: jwks (GET /.well-known/jwks.json) answered 200: (body) must have required property \'keys\' ("keys")';
      assert.deepEqual(wrong.json(), { error: MISMATCH_ERROR, error_detail: detail });
      assert.equal(wrong.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(lines, [detail]);
      assert.deepEqual(
        planted.mismatches.map((m) => [m.operationId, m.status]),
        [['jwks', 200]],
      );

      // The same call answered as declared goes through untouched.
      plant = false;
      const right = await app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host } });
      assert.equal(right.statusCode, 200);
      assert.ok(Array.isArray(right.json().keys) && right.json().keys.length > 0);
      assert.equal(planted.mismatches.length, 1);
      assert.equal(planted.checked.get('jwks'), 2);
    } finally {
      await app.close();
    }
  });

  test('every test server checks its answers: the document of every declared operation compiles', () => {
    // Each declared JSON answer's schema resolves in the document the checker reads (no dangling $ref).
    let schemas = 0;
    for (const op of OPERATIONS) {
      for (const status of Object.keys(op.responses)) {
        if (op.responses[status]?.schema === undefined) continue;
        schemas++;
        // A bare string is no declared body: each validator compiles (a dangling $ref would throw) and refuses it.
        assert.notEqual(
          checker.problemOf(op, Number(status), 'application/json', '"?"'),
          null,
          `${op.operationId} ${status}`,
        );
      }
    }
    assert.ok(schemas > 100, `${schemas} declared JSON answers`);
    assert.ok(server.answers instanceof AnswerChecker);
  });
});
