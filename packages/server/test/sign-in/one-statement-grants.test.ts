import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, afterEach, before, describe } from 'node:test';
import { sha256 } from '../../src/crypto/random.js';
import { clock } from '../../src/domain/clock.js';
import { ServiceError } from '../../src/domain/errors.js';
import { revokeSession } from '../../src/domain/sessions/sessions.js';
import { redeemAuthorizationCode } from '../../src/domain/sign-in/index.js';
import { rotateRefreshToken } from '../../src/domain/tokens/index.js';
import type { Client, Org } from '../../src/domain/types.js';
import { redeemPlainCode } from '../../src/storage/repos/authorization-codes.js';
import { rotatePlainRefreshToken } from '../../src/storage/repos/refresh-tokens.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { CALLBACK, makeClient, makeOrg, makeUser } from './support/fixtures.js';

/**
 * On PostgreSQL a refresh and a code exchange with nothing to decide are one statement each
 * (storage/repos/refresh-tokens.ts, authorization-codes.ts), whose WHERE restates in SQL the rules the
 * transaction applies in TypeScript. These tests pin the two equal: for each state of a token or code,
 * its session and the request, the statement takes it exactly when the transaction would issue tokens
 * (or, where the transaction has more to do — a tenant to move to, resources to read — never).
 * Each case is built twice: once for the statement alone, once for the whole grant.
 */
const NOW = 1_900_000_000_000;
const LATER = NOW + 60_000;

interface RefreshCase {
  name: string;
  /** Whether the statement may take it: false where the transaction has reads of its own to make. */
  plain: boolean;
  used?: boolean;
  tokenExpiresAt?: number;
  revoked?: boolean;
  sessionExpiresAt?: number;
  otherOrg?: boolean;
  boundTo?: string | null;
  proof?: string | null;
  /** The session's tenant is one its user does not belong to (the transaction moves it). */
  foreignTenant?: boolean;
  resources?: boolean;
}

const refreshCases: RefreshCase[] = [
  { name: 'live', plain: true },
  { name: 'used', plain: true, used: true },
  { name: 'token expired a moment ago', plain: true, tokenExpiresAt: NOW - 1 },
  { name: 'token expires now', plain: true, tokenExpiresAt: NOW },
  { name: 'token expires a moment later', plain: true, tokenExpiresAt: NOW + 1 },
  { name: 'session revoked', plain: true, revoked: true },
  { name: 'session expires now', plain: true, sessionExpiresAt: NOW },
  { name: 'session expires a moment later', plain: true, sessionExpiresAt: NOW + 1 },
  { name: 'session of another org', plain: true, otherOrg: true },
  { name: 'bound, its key proved', plain: true, boundTo: 'key-a', proof: 'key-a' },
  { name: 'bound, another key proved', plain: true, boundTo: 'key-a', proof: 'key-b' },
  { name: 'bound, no proof', plain: true, boundTo: 'key-a', proof: null },
  { name: 'unbound, a proof', plain: true, proof: 'key-b' },
  { name: 'user no longer in the session’s tenant', plain: false, foreignTenant: true },
  { name: 'session granted resources', plain: false, resources: true },
];

interface CodeCase {
  name: string;
  plain: boolean;
  used?: boolean;
  codeExpiresAt?: number;
  revoked?: boolean;
  sessionExpiresAt?: number;
  /** The code's redirect URI was given in the request (else it was the client's only one). */
  redirectGiven?: boolean;
  redirectSent?: string | null;
  challenge?: 'right' | 'none';
  verifier?: 'right' | 'wrong' | 'malformed' | 'none';
  boundTo?: string | null;
  proof?: string | null;
  resources?: boolean;
}

const codeCases: CodeCase[] = [
  { name: 'live', plain: true },
  { name: 'used', plain: true, used: true },
  { name: 'expired a moment ago', plain: true, codeExpiresAt: NOW - 1 },
  { name: 'expires now', plain: true, codeExpiresAt: NOW },
  { name: 'expires a moment later', plain: true, codeExpiresAt: NOW + 1 },
  { name: 'session revoked', plain: true, revoked: true },
  { name: 'session expires now', plain: true, sessionExpiresAt: NOW },
  { name: 'redirect_uri of another', plain: true, redirectSent: 'http://127.0.0.1:8765/other' },
  { name: 'redirect_uri left out, it was given', plain: true, redirectSent: null },
  { name: 'redirect_uri left out, it was not given', plain: true, redirectGiven: false, redirectSent: null },
  { name: 'redirect_uri sent, it was not given', plain: true, redirectGiven: false },
  { name: 'verifier wrong', plain: true, verifier: 'wrong' },
  { name: 'verifier malformed', plain: true, verifier: 'malformed' },
  { name: 'verifier missing', plain: true, verifier: 'none' },
  { name: 'no challenge, no verifier', plain: true, challenge: 'none', verifier: 'none' },
  { name: 'no challenge, a verifier', plain: true, challenge: 'none' },
  { name: 'bound, its key proved', plain: true, boundTo: 'key-a', proof: 'key-a' },
  { name: 'bound, another key proved', plain: true, boundTo: 'key-a', proof: 'key-b' },
  { name: 'bound, no proof', plain: true, boundTo: 'key-a', proof: null },
  { name: 'unbound, a proof', plain: true, proof: 'key-b' },
  { name: 'session granted resources', plain: false, resources: true },
];

for (const database of storageSuite(
  'the one-statement refresh and code exchange restate the transaction’s rules in PostgreSQL’s SQL',
)) {
  describe(`one-statement refresh and code exchange on ${database}`, async () => {
    const skip = await databaseSkip(database);
    const test = storageTestsOn(
      database,
      [
        'a refresh racing its session’s revocation: refused, or its new token is refused next',
        'two exchanges of one code at once: one answered, the other revokes the session',
      ],
      [
        'refresh: the statement takes a token exactly when the transaction would rotate it',
        'code exchange: the statement takes a code exactly when the transaction would redeem it',
      ],
    );
    let server: TestServer;
    let org: Org;
    let otherOrg: Org;
    let client: Client;
    let userId: string;
    let tenantId: string;
    let foreignTenantId: string;

    before(async () => {
      if (skip) return;
      server = await startServer({ database });
      org = await makeOrg(server, 'acme');
      otherOrg = await makeOrg(server, 'other');
      const ada = await makeUser(server.deps, org, 'ada@acme.test');
      const bob = await makeUser(server.deps, org, 'bob@acme.test');
      userId = ada.user.id;
      tenantId = ada.tenant.id;
      foreignTenantId = bob.tenant.id;
      ({ client } = await makeClient(server.deps, org, { name: 'Public app' }));
    });
    after(async () => {
      if (!skip) await server.close();
    });
    afterEach(() => {
      clock.now = () => Date.now();
    });

    async function newSession(c: {
      revoked?: boolean;
      sessionExpiresAt?: number;
      otherOrg?: boolean;
      foreignTenant?: boolean;
      resources?: boolean;
    }): Promise<string> {
      const id = `sid_pin_${randomBytes(8).toString('hex')}`;
      await server.db
        .insertInto('oauth_sessions')
        .values({
          id,
          org_id: c.otherOrg ? otherOrg.id : org.id,
          user_id: userId,
          client_id: client.id,
          tenant_id: c.foreignTenant ? foreignTenantId : tenantId,
          amr: '["pwd"]',
          acr: 'urn:tessera:acr:pwd',
          scope: 'openid',
          created_at: NOW - 60_000,
          expires_at: c.sessionExpiresAt ?? LATER,
          revoked_at: c.revoked ? NOW - 1 : null,
          actor_id: null,
          auth_time: NOW - 60_000,
          browser_session: null,
          resources: c.resources ? JSON.stringify([{ resource: 'https://api.acme.test', scopes: [] }]) : null,
          claims: null,
          sid: null,
        })
        .execute();
      return id;
    }

    async function newRefreshToken(c: RefreshCase): Promise<string> {
      const sessionId = await newSession(c);
      const token = `rt_pin_${randomBytes(16).toString('hex')}`;
      await server.db
        .insertInto('refresh_tokens')
        .values({
          token_hash: sha256(token),
          session_id: sessionId,
          client_id: client.id,
          created_at: NOW - 60_000,
          expires_at: c.tokenExpiresAt ?? LATER,
          used_at: c.used ? NOW - 30_000 : null,
          rotated_to: null,
          retired_at: null,
          dpop_jkt: c.boundTo ?? null,
        })
        .execute();
      return token;
    }

    /** The grant's answer: ok, or the situation of its refusal. */
    async function outcome(grant: () => Promise<unknown>): Promise<string> {
      try {
        await grant();
        return 'ok';
      } catch (error) {
        if (error instanceof ServiceError) return error.situation;
        throw error;
      }
    }

    test('refresh: the statement takes a token exactly when the transaction would rotate it', {
      skip,
    }, async () => {
      clock.now = () => NOW;
      const takenNames: string[] = [];
      for (const c of refreshCases) {
        const proof = c.proof ?? null;
        const alone = await newRefreshToken(c);
        const taken = await rotatePlainRefreshToken(server.deps.store, {
          clientId: client.id,
          tokenHash: sha256(alone),
          orgId: org.id,
          dpopJkt: proof,
          console: false,
          now: NOW,
          successorHash: sha256(`${alone}-successor`),
          successorNotAfter: NOW + 1_000_000,
          successorJkt: proof,
        });
        // Through the whole grant, which on PostgreSQL tries the statement first and then the
        // transaction; either way its answer is the transaction's rules' (the statement's row is checked again).
        const other = await newRefreshToken(c);
        const whole = await outcome(() =>
          rotateRefreshToken(server.deps, org, { client }, other, undefined, undefined, proof),
        );
        if (c.plain)
          assert.equal(taken !== null, whole === 'ok', `${c.name}: statement vs transaction (${whole})`);
        else assert.equal(taken, null, `${c.name}: left to the transaction`);
        if (taken !== null) {
          takenNames.push(c.name);
          const successor = await server.db
            .selectFrom('refresh_tokens')
            .selectAll()
            .where('token_hash', '=', sha256(`${alone}-successor`))
            .executeTakeFirstOrThrow();
          assert.deepEqual(
            {
              session: successor.session_id,
              expires: Number(successor.expires_at),
              used: successor.used_at,
              jkt: successor.dpop_jkt,
            },
            {
              session: taken.session.id,
              expires: Math.min(NOW + 1_000_000, taken.session.expiresAt),
              used: null,
              jkt: proof,
            },
            c.name,
          );
        }
      }
      assert.deepEqual(takenNames, [
        'live',
        'token expires a moment later',
        'session expires a moment later',
        'bound, its key proved',
        'unbound, a proof',
      ]);
    });

    async function newCode(c: CodeCase): Promise<{ code: string; verifier: string }> {
      const sessionId = await newSession(c);
      const code = `tac_pin_${randomBytes(16).toString('hex')}`;
      const verifier = randomBytes(32).toString('base64url');
      await server.db
        .insertInto('authorization_codes')
        .values({
          code_hash: sha256(code),
          org_id: org.id,
          client_id: client.id,
          session_id: sessionId,
          redirect_uri: CALLBACK,
          redirect_uri_given: c.redirectGiven === false ? 0 : 1,
          code_challenge:
            c.challenge === 'none' ? null : createHash('sha256').update(verifier).digest('base64url'),
          created_at: NOW - 10_000,
          expires_at: c.codeExpiresAt ?? NOW + 50_000,
          used_at: c.used ? NOW - 5_000 : null,
          nonce: 'n-0S6_WzA2Mj',
          dpop_jkt: c.boundTo ?? null,
        })
        .execute();
      return { code, verifier };
    }

    const verifierOf = (c: CodeCase, right: string): string | undefined =>
      ({
        right,
        wrong: randomBytes(32).toString('base64url'),
        malformed: 'too short',
        none: undefined,
      })[c.verifier ?? 'right'];

    test('code exchange: the statement takes a code exactly when the transaction would redeem it', {
      skip,
    }, async () => {
      clock.now = () => NOW;
      const takenNames: string[] = [];
      for (const c of codeCases) {
        const proof = c.proof ?? null;
        const redirectUri = c.redirectSent === undefined ? CALLBACK : (c.redirectSent ?? undefined);
        const alone = await newCode(c);
        const verifier = verifierOf(c, alone.verifier);
        const taken = await redeemPlainCode(server.deps.store, {
          codeHash: sha256(alone.code),
          orgId: org.id,
          clientId: client.id,
          redirectUri: redirectUri ?? null,
          challenge:
            verifier === undefined ? null : createHash('sha256').update(verifier).digest('base64url'),
          dpopJkt: proof,
          console: false,
          now: NOW,
          refreshHash: null,
          refreshNotAfter: NOW + 1_000_000,
          refreshJkt: null,
        });
        const other = await newCode(c);
        const whole = await outcome(() =>
          redeemAuthorizationCode(
            server.deps,
            org,
            { client },
            {
              code: other.code,
              redirectUri,
              codeVerifier: verifierOf(c, other.verifier),
              dpopJkt: proof,
            },
          ),
        );
        if (c.plain)
          assert.equal(taken !== null, whole === 'ok', `${c.name}: statement vs transaction (${whole})`);
        else assert.equal(taken, null, `${c.name}: left to the transaction`);
        if (taken !== null) takenNames.push(c.name);
      }
      assert.deepEqual(takenNames, [
        'live',
        'expires a moment later',
        'redirect_uri left out, it was not given',
        'redirect_uri sent, it was not given',
        'no challenge, no verifier',
        'bound, its key proved',
        'unbound, a proof',
      ]);
    });

    // Attacks on the one statement: what it does not lock (the session row) can change under it.
    test('a refresh racing its session’s revocation: refused, or its new token is refused next', {
      skip,
    }, async () => {
      const answers = new Set<string>();
      for (let round = 0; round < 12; round++) {
        const token = await newRefreshToken({ name: 'race', plain: true });
        const { session_id: sessionId } = await server.db
          .selectFrom('refresh_tokens')
          .select('session_id')
          .where('token_hash', '=', sha256(token))
          .executeTakeFirstOrThrow();
        let successor: string | undefined;
        const [answer] = await Promise.all([
          outcome(async () => {
            successor = (await rotateRefreshToken(server.deps, org, { client }, token)).refreshToken;
          }),
          server.deps.unitOfWork.run((tx) =>
            revokeSession(tx, sessionId, { kind: 'client', id: client.id }, Date.now()),
          ),
        ]);
        answers.add(answer);
        if (answer === 'ok') {
          assert.ok(successor);
          assert.equal(
            await outcome(() => rotateRefreshToken(server.deps, org, { client }, successor as string)),
            'token.refresh.session_ended',
            `round ${round}`,
          );
        } else assert.equal(answer, 'token.refresh.session_ended', `round ${round}`);
      }
      assert.ok(answers.size >= 1);
    });

    test('two exchanges of one code at once: one answered, the other revokes the session', {
      skip,
    }, async () => {
      for (let round = 0; round < 6; round++) {
        const { code, verifier } = await newCode({ name: 'race', plain: true });
        const refreshTokens: (string | undefined)[] = [];
        const exchange = () =>
          outcome(async () => {
            const set = await redeemAuthorizationCode(
              server.deps,
              org,
              { client },
              { code, redirectUri: CALLBACK, codeVerifier: verifier },
            );
            refreshTokens.push(set.refreshToken);
          });
        const answers = await Promise.all([exchange(), exchange()]);
        assert.deepEqual(answers.sort(), ['ok', 'token.code.reused'], `round ${round}`);
        // The session the code opened is revoked: the winner's refresh token no longer works.
        assert.equal(refreshTokens.length, 1);
        assert.equal(
          await outcome(() => rotateRefreshToken(server.deps, org, { client }, refreshTokens[0] as string)),
          'token.refresh.session_ended',
          `round ${round}`,
        );
      }
    });
  });
}
