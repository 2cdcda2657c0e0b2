// DPoP's cost (RFC 9449), each as a ratio of two targets measured in the same run, in rounds that
// alternate them so the shared machine's drift falls on both (the median round is the result):
//
// - Tessera's token endpoint: client_credentials with a DPoP proof (a bound token, cnf.jkt; the proof's
//   signature checked and its jti recorded in the database) / the same without. Goal ≥ 0.8×.
// - @tessera/koa: authenticate with dpop 'allowed', a bound token and a fresh proof per request (the
//   proof's signature, thumbprint, ath, and the in-memory replay store) / the same API verifying a plain
//   bearer token as shipped. Goal ≥ 0.5×.
//
// Every proof is made before its measurement (the load generator only picks the next one), distinct
// (its own jti) and good for a minute. Not a test: nothing asserts a timing.
//
//   npm run bench -- dpop
//   BENCH_SECONDS=5 BENCH_ROUNDS=3 npm run bench -- dpop
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import autocannon, { type Result } from 'autocannon';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { onCleanup, runBench, spawnTs, stop, untilReady } from '../support/children.js';
import { startTessera, type Target } from '../token-endpoint/targets.js';
import { newProofKey, type ProofKey, proofs } from './proofs.js';

const SECONDS = positive('BENCH_SECONDS', 10);
const ROUNDS = positive('BENCH_ROUNDS', 3);
const CONNECTIONS = positive('BENCH_CONNECTIONS', 10);
const WARMUP_SECONDS = Math.min(3, Math.max(1, Math.round(SECONDS / 5)));
const AUDIENCE = 'cli_bench';
const POOL_THREADS = process.env.UV_THREADPOOL_SIZE ?? String(Math.max(1, availableParallelism() - 1));

function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  if (name === 'BENCH_SECONDS' && value > 40)
    throw new Error('BENCH_SECONDS ≤ 40: a proof is good for a minute');
  return value;
}

interface Load {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Warm-up, then the measured run; with `dpop`, each request takes the next proof (none is sent twice). */
async function measure(load: Load, dpop?: string[]): Promise<Result> {
  let next = 0;
  const requests =
    dpop === undefined
      ? undefined
      : [
          {
            setupRequest: (request: { headers?: Record<string, string> }) => ({
              ...request,
              headers: { ...request.headers, dpop: dpop[next++ % dpop.length] as string },
            }),
          },
        ];
  const options = { ...load, connections: CONNECTIONS, ...(requests ? { requests } : {}) };
  await autocannon({ ...options, duration: WARMUP_SECONDS });
  return autocannon({ ...options, duration: SECONDS });
}

const failed = (r: Result) => r.non2xx + r.errors + r.timeouts;

/** How many proofs a run may use: the plain rate's worth for warm-up and run, and half again. */
const proofsFor = (plainRate: number) => Math.ceil(plainRate * (WARMUP_SECONDS + SECONDS) * 1.5) + 100;

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
}

async function rounds(
  name: string,
  goal: number,
  plain: () => Promise<Result>,
  bound: (plainRate: number) => Promise<Result>,
): Promise<void> {
  const ratios: number[] = [];
  const lines: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    process.stdout.write(`${name}: round ${round} of ${ROUNDS}…\n`);
    const p = await plain();
    const d = await bound(p.requests.average);
    if (failed(p) > 0 || failed(d) > 0)
      throw new Error(`${name}: ${failed(p)} plain and ${failed(d)} DPoP requests failed`);
    const ratio = d.requests.average / p.requests.average;
    ratios.push(ratio);
    lines.push(
      `${d.requests.average.toFixed(0)} / ${p.requests.average.toFixed(0)} req/s = ${ratio.toFixed(2)}× ` +
        `(p99 ${d.latency.p99} / ${p.latency.p99} ms)`,
    );
  }
  const m = median(ratios);
  console.log(`\n${name}, DPoP / plain, alternating rounds:\n  ${lines.join('\n  ')}`);
  console.log(`  median ${m.toFixed(2)}× (goal ≥ ${goal.toFixed(2)}×: ${m >= goal ? 'met' : 'not met'})\n`);
}

/** The token endpoint: client_credentials (client_secret_post) with and without a proof. */
async function tokenEndpoint(): Promise<void> {
  const tessera: Target = await startTessera('tessera (sqlite)', null);
  const port = new URL(tessera.tokenUrl).port;
  // The proof names the org's token endpoint, as a client that read discovery does.
  const htu = `http://bench.localhost:${port}/oauth/token`;
  const load: Load = {
    url: tessera.tokenUrl,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: tessera.body,
  };
  const key = newProofKey();
  const [check] = proofs(key, 'POST', htu, 1);
  const answer = await fetch(tessera.tokenUrl, {
    ...load,
    headers: { ...load.headers, dpop: check as string },
  });
  const body = (await answer.json()) as Record<string, unknown>;
  if (body.token_type !== 'DPoP')
    throw new Error(`the token endpoint answered ${JSON.stringify(body.error)}`);
  await rounds(
    'token endpoint, client_credentials',
    0.8,
    () => measure(load),
    (rate) => measure(load, proofs(key, 'POST', htu, proofsFor(rate))),
  );
}

/** A local key set and two tokens of one user: one plain, one bound to `key` (cnf.jkt). */
async function keySet(key: ProofKey): Promise<{ issuer: string; plain: string; bound: string }> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  const body = JSON.stringify({ keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] });
  const server = createServer((req, res) => {
    if (req.url !== '/.well-known/jwks.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => server.close());
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const token = (extra: Record<string, unknown>) =>
    new SignJWT({ typ: 'user', tnt: 'tnt_bench', sid: 'ses_bench', amr: ['pwd'], ...extra })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid })
      .setIssuer(issuer)
      .setAudience(AUDIENCE)
      .setSubject('usr_bench')
      .setJti('jti_bench')
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(privateKey);
  const jkt = await calculateJwkThumbprint(key.jwk);
  return { issuer, plain: await token({}), bound: await token({ cnf: { jkt } }) };
}

async function startApi(mode: 'bearer' | 'bearer-uncached' | 'dpop', issuer: string): Promise<string> {
  const child = spawnTs(new URL('./koa-child.ts', import.meta.url).pathname, [mode], {
    ...process.env,
    UV_THREADPOOL_SIZE: POOL_THREADS,
    ISSUER: issuer,
    AUDIENCE,
  });
  onCleanup(() => stop(child.process));
  const [message] = await untilReady(child, `koa (${mode})`, once(child.process, 'message'));
  return `http://127.0.0.1:${(message as { port: number }).port}/`;
}

/**
 * @tessera/koa: a bound token with a fresh proof per request, against a plain bearer token verified
 * as shipped (its verified result cached: no signature checked per request) and verified on every
 * request (cache off: one RSA check each, as with many distinct tokens).
 */
async function koaMiddleware(): Promise<void> {
  const key = newProofKey();
  const { issuer, plain, bound } = await keySet(key);
  const bearerUrl = await startApi('bearer', issuer);
  const uncachedUrl = await startApi('bearer-uncached', issuer);
  const dpopUrl = await startApi('dpop', issuer);
  const [check] = proofs(key, 'GET', dpopUrl, 1, bound);
  const answer = await fetch(dpopUrl, { headers: { authorization: `DPoP ${bound}`, dpop: check as string } });
  if (answer.status !== 200) throw new Error(`the DPoP API answered ${answer.status} to a good proof`);
  const cached: number[] = [];
  const uncached: number[] = [];
  const lines: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    process.stdout.write(`@tessera/koa authenticate: round ${round} of ${ROUNDS}…\n`);
    const b = await measure({ url: bearerUrl, headers: { authorization: `Bearer ${plain}` } });
    const u = await measure({ url: uncachedUrl, headers: { authorization: `Bearer ${plain}` } });
    const dpop = proofs(key, 'GET', dpopUrl, proofsFor(b.requests.average), bound);
    const d = await measure({ url: dpopUrl, headers: { authorization: `DPoP ${bound}` } }, dpop);
    for (const r of [b, u, d])
      if (failed(r) > 0) throw new Error(`@tessera/koa: ${failed(r)} requests failed`);
    cached.push(d.requests.average / b.requests.average);
    uncached.push(d.requests.average / u.requests.average);
    lines.push(
      `DPoP ${d.requests.average.toFixed(0)}, bearer ${b.requests.average.toFixed(0)} (cached), ` +
        `${u.requests.average.toFixed(0)} (each verified) req/s; p99 ${d.latency.p99} / ${b.latency.p99} / ${u.latency.p99} ms`,
    );
  }
  const [mc, mu] = [median(cached), median(uncached)];
  console.log(`\n@tessera/koa authenticate, alternating rounds:\n  ${lines.join('\n  ')}`);
  console.log(
    `  DPoP / bearer as shipped (result cached): median ${mc.toFixed(2)}× (goal ≥ 0.50×: ${mc >= 0.5 ? 'met' : 'not met'})`,
  );
  console.log(
    `  DPoP / bearer verified per request:       median ${mu.toFixed(2)}× (goal ≥ 0.50×: ${mu >= 0.5 ? 'met' : 'not met'})\n`,
  );
}

async function main(): Promise<void> {
  console.log(
    `${CONNECTIONS} connections, ${SECONDS} s per run after ${WARMUP_SECONDS} s warm-up, ${ROUNDS} rounds`,
  );
  await tokenEndpoint();
  await koaMiddleware();
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

await runBench(main);
