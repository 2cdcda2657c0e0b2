// Token-endpoint throughput: Tessera vs node-oidc-provider and a bare node:http server (the platform's floor),
// client_credentials → RS256 JWT. Run from the repo root: npm run bench -- token-endpoint
import { generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import autocannon, { type Result } from 'autocannon';
import { runBench } from '../support/children.js';
import { newConnectionLoad } from '../support/new-connections.js';
import { fmt, quantile, table } from '../support/report.js';
import { startTlsFront, tlsFrontSkip } from '../support/tls-front.js';
import { BARE, freshDatabase, startBare, startOidcProvider, startTessera, type Target } from './targets.js';
import { checkTarget } from './verify.js';

const SECONDS = Number(process.env.BENCH_SECONDS) > 0 ? Number(process.env.BENCH_SECONDS) : 15;
// Long enough for the JIT and the servers' key/CryptoKey caches; its numbers are thrown away.
const WARMUP_SECONDS = Math.min(3, Math.max(1, Math.round(SECONDS / 5)));
const CONNECTIONS = [10, 50];

/**
 * Every token costs one RSA-2048 signature, so a single core's sign rate is the natural unit:
 * a server doing nothing else would reach it (more only if signing spreads over cores).
 * Counted per wall second (the floor) and per CPU second: a gap between them means the machine is busy.
 */
function rawSignRate(ms = 2000): { wall: number; cpu: number } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const input = Buffer.from('x'.repeat(400)); // about a JWT's header.payload
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let count = 0;
  let elapsed = 0;
  do {
    sign('sha256', input, privateKey);
    count++;
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  const cpu = process.cpuUsage(cpuStart);
  return { wall: (count / elapsed) * 1000, cpu: (count / (cpu.user + cpu.system)) * 1e6 };
}

/**
 * The same signature as a server makes it: `crypto.sign` with a callback, so it runs on libuv's
 * pool, 32 in flight. Handing each signature to a pool thread and its result back costs CPU of its
 * own (two thread switches and the job's bookkeeping), so this is the floor a server that signs off
 * its main thread can reach: CPU ms per signature, all threads of this process.
 */
async function pooledSignCpuMs(count = 4000): Promise<number> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const input = Buffer.from('x'.repeat(400));
  const one = () =>
    new Promise<void>((resolve, reject) =>
      sign('sha256', input, privateKey, (error) => (error ? reject(error) : resolve())),
    );
  let started = 0;
  const cpuStart = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (started++ < count) await one();
    }),
  );
  const cpu = process.cpuUsage(cpuStart);
  return (cpu.user + cpu.system) / 1000 / count;
}

/**
 * One autocannon run, with its p99 taken from every response's own latency: autocannon's histogram keeps
 * whole milliseconds, too coarse for a ratio of two p99s of 5–15 ms.
 */
async function load(
  target: Target,
  connections: number,
  duration: number,
): Promise<{ result: Result; p99: number }> {
  const latencies: number[] = [];
  const result = await autocannon({
    url: target.tokenUrl,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: target.body,
    connections,
    duration,
  }).on('response', (_client, _status, _bytes, latencyMs) => latencies.push(latencyMs));
  latencies.sort((a, b) => a - b);
  return { result, p99: quantile(latencies, 0.99) };
}

/**
 * CPU ms a server has used so far, whole process and JS main thread (Linux /proc; USER_HZ 100).
 * Per request, this says what a server costs independently of how busy the shared machine is:
 * the main thread caps throughput on its own, signing runs on libuv's pool threads.
 */
function cpuMs(pid: number | undefined): { all: number; main: number } | undefined {
  const ms = (path: string) => {
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime
  };
  try {
    return { all: ms(`/proc/${pid}/stat`), main: ms(`/proc/${pid}/task/${pid}/stat`) };
  } catch {
    return undefined;
  }
}

interface Row {
  target: string;
  connections: number;
  result: Result;
  /** From every response's latency (autocannon's own is in whole ms). */
  p99: number;
  /** CPU ms per completed request: main thread, all threads. */
  cpu: { main: number; all: number } | undefined;
}

function report(rows: Row[], signs: { wall: number; cpu: number; pooledMs: number }): void {
  const signMs = 1000 / signs.cpu;
  console.log(
    `\nRSA-2048 sign floor (crypto.sign, one core): ${fmt(signs.wall)} signs/s ` +
      `(${fmt(signs.cpu)} per CPU second = ${fmt(signMs, 2)} ms CPU per token)` +
      `\nthe same signature on libuv's pool (callback, 32 in flight): ${fmt(signs.pooledMs, 2)} ms CPU ` +
      `= ×${fmt(signs.pooledMs / signMs, 2)} of one\n`,
  );
  console.log(
    table(
      [
        'target',
        'conns',
        'req/s',
        'p99 ms',
        'non-2xx',
        'errors',
        'req/s ÷ signs/s',
        'cpu ms/req main|all',
        'cpu ÷ sign | ÷ pooled',
      ],
      rows.map(({ target, connections, result: r, p99, cpu }) => [
        target,
        String(connections),
        fmt(r.requests.mean),
        fmt(p99, 2),
        String(r.non2xx),
        String(r.errors + r.timeouts),
        fmt(r.requests.mean / signs.wall, 2),
        cpu ? `${fmt(cpu.main, 2)} | ${fmt(cpu.all, 2)}` : 'n/a',
        cpu ? `×${fmt(cpu.all / signMs, 2)} | ×${fmt(cpu.all / signs.pooledMs, 2)}` : 'n/a',
      ]),
    ),
  );
  const ratios: string[][] = [];
  for (const reference of ['oidc-provider', BARE]) {
    for (const connections of CONNECTIONS) {
      const at = rows.filter((r) => r.connections === connections);
      const peer = at.find((r) => r.target === reference);
      if (!peer) continue;
      for (const { target, result, p99, cpu } of at.filter((r) => r.target.startsWith('tessera'))) {
        ratios.push([
          `${target} / ${reference}`,
          String(connections),
          `×${fmt(result.requests.mean / peer.result.requests.mean, 2)}`,
          `×${fmt(p99 / peer.p99, 2)}`,
          cpu && peer.cpu ? `×${fmt(cpu.all / peer.cpu.all, 2)}` : 'n/a',
        ]);
      }
    }
  }
  console.log(
    `\n${table(['ratio', 'conns', 'req/s (higher better)', 'p99 (lower better)', 'cpu/req (lower better)'], ratios)}`,
  );
}

/** Connections (lanes) of the variant with a new TLS connection per request. */
const TLS_LANES = 10;

/**
 * The variant with a new TLS connection per request, as Keycloak's sizing figures are measured
 * (120–200 client-credentials grants per second per vCPU, most of it TLS): nginx terminates TLS in
 * front of every target (bench/support/tls-front.ts) and each request is a full handshake. Per core:
 * 1000 ÷ the CPU ms per token of the server and of nginx together (and of the server alone).
 */
async function tlsVariant(targets: Target[]): Promise<void> {
  const skip = tlsFrontSkip();
  if (skip) {
    console.log(`\nnew TLS connection per request: skipped, ${skip}`);
    return;
  }
  const front = await startTlsFront(targets.map((t) => Number(new URL(t.tokenUrl).port)));
  const rows: string[][] = [];
  for (const [i, target] of targets.entries()) {
    const http = new URL(target.tokenUrl);
    const url = `${front.origins[i]}${http.pathname}${http.search}`;
    const run = (seconds: number) =>
      newConnectionLoad({
        url,
        ca: front.ca,
        lanes: TLS_LANES,
        seconds,
        form: () => target.body,
        answered: (_, status, body) => status === 200 && body.includes('"access_token"'),
      });
    process.stdout.write(`  ${target.name}, new TLS connection per request… `);
    await run(WARMUP_SECONDS);
    const before = { server: cpuMs(target.pid), tls: cpuMs(front.pid) };
    const result = await run(SECONDS);
    const after = { server: cpuMs(target.pid), tls: cpuMs(front.pid) };
    console.log(`${fmt(result.reqPerSec)} req/s`);
    const n = Math.max(1, result.requests);
    const server = before.server && after.server ? (after.server.all - before.server.all) / n : Number.NaN;
    const tls = before.tls && after.tls ? (after.tls.all - before.tls.all) / n : Number.NaN;
    rows.push([
      target.name,
      fmt(result.reqPerSec),
      fmt(result.p50, 1),
      fmt(result.p99, 1),
      String(result.failed),
      fmt(server, 2),
      fmt(tls, 2),
      fmt(1000 / (server + tls)),
      fmt(1000 / server),
    ]);
  }
  console.log(
    `\nNew TLS connection per request (${TLS_LANES} at once): ${front.describe}; CPU from /proc, the client's not counted`,
  );
  console.log(
    table(
      [
        'target',
        'req/s',
        'p50 ms',
        'p99 ms',
        'failed',
        'server cpu ms/req',
        'TLS cpu ms/req',
        'tokens/s per core (server + TLS)',
        'per core (server alone)',
      ],
      rows,
    ),
  );
  console.log(
    "Keycloak's published sizing: 120–200 client-credentials grants/s per vCPU, new TLS connection per request",
  );
}

async function main(): Promise<void> {
  console.log(
    `load average (1 5 15 min) before the run: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  console.log(`measuring the RSA-2048 sign rate (2 s)…`);
  const signs = { ...rawSignRate(), pooledMs: await pooledSignCpuMs() };
  const targets = [await startTessera('tessera (sqlite)', null)];
  const pgUrl = process.env.DATABASE_URL;
  if (pgUrl) targets.push(await startTessera('tessera (postgres)', await freshDatabase(pgUrl)));
  targets.push(await startOidcProvider(), await startBare());
  for (const target of targets) await checkTarget(target);
  console.log(
    `all targets return RS256 JWTs from 2048-bit keys; ${SECONDS} s per run, ${WARMUP_SECONDS} s warm-up`,
  );

  const rows: Row[] = [];
  for (const connections of CONNECTIONS) {
    for (const target of targets) {
      process.stdout.write(`  ${target.name} @ ${connections} connections… `);
      await load(target, connections, WARMUP_SECONDS);
      const before = cpuMs(target.pid);
      const { result, p99 } = await load(target, connections, SECONDS);
      const after = cpuMs(target.pid);
      const n = Math.max(1, result.requests.total);
      const cpu =
        before && after
          ? { main: (after.main - before.main) / n, all: (after.all - before.all) / n }
          : undefined;
      console.log(`${fmt(result.requests.mean)} req/s`);
      rows.push({ target: target.name, connections, result, p99, cpu });
    }
  }
  report(rows, signs);
  await tlsVariant(targets);
  console.log(
    `\nload average (1 5 15 min) after the run: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
}

await runBench(main);
