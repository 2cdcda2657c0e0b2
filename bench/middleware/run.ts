// Throughput of token-verifying middleware, all in one run against the same token and key set:
// bare Koa, Koa + @tessera/koa's authenticate (and the same with its result cache off), Koa + koa-jwt with
// jwks-rsa, and Express + express-oauth2-jwt-bearer. Each server runs alone in its own child process;
// autocannon drives it from this one. Not a test: nothing here asserts a timing.
//
//   node --conditions=tessera-source --import tsx bench/middleware/run.ts
//   BENCH_SECONDS=5 BENCH_CONNECTIONS=50 node --conditions=tessera-source --import tsx bench/middleware/run.ts
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { type Child, spawnTs, stop, untilReady } from '../support/children.js';
import { TARGETS, type Target } from './targets.js';

const SECONDS = positive('BENCH_SECONDS', 15);
const CONNECTIONS = positive('BENCH_CONNECTIONS', 50);
const WARMUP_SECONDS = Math.min(3, Math.max(1, Math.round(SECONDS / 5)));
const AUDIENCE = 'cli_bench';
const GOAL_ROUNDS = 5;
/**
 * libuv's pool threads in each server (where RSA checks run): the cores autocannon leaves, one here on
 * 2 cores, unless UV_THREADPOOL_SIZE is set. libuv's default of 4 on 2 cores has the pool, the event loop
 * and autocannon preempting each other; it is printed with the results.
 */
const POOL_THREADS = process.env.UV_THREADPOOL_SIZE ?? String(Math.max(1, availableParallelism() - 1));

interface Row {
  readonly target: Target;
  readonly requestsPerSecond: number;
  readonly p99: number;
  readonly failed: number;
}

function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

async function startKeySet(): Promise<{ issuer: string; token: string; server: Server }> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  const body = JSON.stringify({ keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] });
  const server = createServer((req, res) => {
    if (req.url !== '/.well-known/jwks.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const token = await new SignJWT({ typ: 'user', tnt: 'tnt_bench', sid: 'ses_bench', amr: ['pwd'] })
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid })
    .setIssuer(issuer)
    .setAudience(AUDIENCE)
    .setSubject('usr_bench')
    .setJti('jti_bench')
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(privateKey);
  return { issuer, token, server };
}

async function startTarget(target: Target, issuer: string): Promise<{ child: Child; url: string }> {
  const child = spawnTs(new URL('./servers.ts', import.meta.url).pathname, [target], {
    ...process.env,
    UV_THREADPOOL_SIZE: POOL_THREADS,
    ISSUER: issuer,
    AUDIENCE,
    // 'test' keeps Express from printing a stack trace for the 401 of the behaviour check.
    NODE_ENV: 'test',
  });
  const [message] = await untilReady(child, target, once(child.process, 'message'));
  return { child, url: `http://127.0.0.1:${(message as { port: number }).port}/` };
}

/** A comparison is only fair if every target really verifies: 200 with the token, 401 without it. */
async function checkBehaviour(target: Target, url: string, token: string): Promise<void> {
  const withToken = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await withToken.arrayBuffer();
  if (withToken.status !== 200) throw new Error(`${target}: ${withToken.status} with a valid token`);
  if (target === 'koa') return;
  const without = await fetch(url);
  await without.arrayBuffer();
  if (without.status !== 401) throw new Error(`${target}: ${without.status} without a token`);
}

async function measure(target: Target, issuer: string, token: string): Promise<Row> {
  const { child, url } = await startTarget(target, issuer);
  try {
    await checkBehaviour(target, url, token);
    const load = { url, connections: CONNECTIONS, headers: { authorization: `Bearer ${token}` } };
    await autocannon({ ...load, duration: WARMUP_SECONDS });
    const result = await autocannon({ ...load, duration: SECONDS });
    return {
      target,
      requestsPerSecond: result.requests.average,
      p99: result.latency.p99,
      failed: result.non2xx + result.errors + result.timeouts,
    };
  } finally {
    await stop(child.process);
  }
}

function report(rows: readonly Row[]): void {
  const rate = (target: Target) => rows.find((row) => row.target === target)?.requestsPerSecond ?? Number.NaN;
  const width = Math.max(...rows.map((row) => row.target.length));
  console.log(
    `\n${CONNECTIONS} connections, ${SECONDS} s per target (after ${WARMUP_SECONDS} s warm-up); servers with UV_THREADPOOL_SIZE=${POOL_THREADS}\n`,
  );
  console.log(`${'target'.padEnd(width)}  ${'req/s'.padStart(9)}  ${'p99 ms'.padStart(7)}  failed`);
  for (const row of rows) {
    const rps = row.requestsPerSecond.toFixed(0).padStart(9);
    console.log(`${row.target.padEnd(width)}  ${rps}  ${String(row.p99).padStart(7)}  ${row.failed}`);
  }
  const ours = rate('koa+authenticate');
  console.log(
    `\nauthenticate / koa-jwt:                   ${(ours / rate('koa+koa-jwt+jwks-rsa')).toFixed(2)}×`,
  );
  console.log(
    `authenticate / express-oauth2-jwt-bearer: ${(ours / rate('express+express-oauth2-jwt-bearer')).toFixed(2)}×`,
  );
  console.log(`authenticate / bare koa:                  ${(ours / rate('koa')).toFixed(2)}×`);
  const uncached = rate('koa+authenticate(no result cache)') / rate('koa');
  console.log(`authenticate, no result cache / bare koa:  ${uncached.toFixed(2)}×`);
}

/**
 * Issue #19's goal, every token distinct (no result cache) at least 0.5× bare Koa, measured in
 * rounds that alternate the two targets, so that the machine's drift (a shared 2-core machine moves
 * by ±20 % over a minute) falls on both; the median round's ratio is the result.
 */
async function goalRounds(issuer: string, token: string): Promise<void> {
  const ratios: string[] = [];
  const values: number[] = [];
  for (let round = 1; round <= GOAL_ROUNDS; round++) {
    process.stdout.write(`goal round ${round} of ${GOAL_ROUNDS}…\n`);
    const koa = await measure('koa', issuer, token);
    const uncached = await measure('koa+authenticate(no result cache)', issuer, token);
    const ratio = uncached.requestsPerSecond / koa.requestsPerSecond;
    values.push(ratio);
    ratios.push(
      `${uncached.requestsPerSecond.toFixed(0)} / ${koa.requestsPerSecond.toFixed(0)} = ${ratio.toFixed(2)}×`,
    );
  }
  const median = [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  console.log(`\nno result cache / bare koa, alternating rounds: ${ratios.join(', ')}`);
  console.log(
    `median: ${median.toFixed(2)}× (goal ≥ 0.50×: ${median >= 0.5 ? 'met' : 'not met'}); load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

async function main(): Promise<void> {
  const { issuer, token, server } = await startKeySet();
  try {
    const rows: Row[] = [];
    for (const target of TARGETS) {
      process.stdout.write(`running ${target}…\n`);
      rows.push(await measure(target, issuer, token));
    }
    report(rows);
    await goalRounds(issuer, token);
  } finally {
    server.close();
  }
}

await main();
