// A load loop where every request opens a TLS connection of its own (no agent, no session resumption:
// a full handshake each time), as the clients behind Keycloak's published per-vCPU figures do. The
// CPU the servers spend per request is read by the caller from /proc; this side's is not counted.
import { request } from 'node:https';
import { quantile } from './report.js';

export interface NewConnectionRun {
  requests: number;
  failed: number;
  reqPerSec: number;
  p50: number;
  p99: number;
}

/**
 * `lanes` loops for `seconds`, each POSTing `form(lane)` to `url` over a new TLS connection and
 * handing the answer to `answered(lane, status, body)`, which says whether it counts as a success.
 */
export async function newConnectionLoad(options: {
  url: string;
  ca: string;
  lanes: number;
  seconds: number;
  form: (lane: number) => string;
  answered: (lane: number, status: number, body: string) => boolean;
}): Promise<NewConnectionRun> {
  const url = new URL(options.url);
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  const end = started + options.seconds * 1000;
  const post = (form: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent: false,
          ca: options.ca,
          servername: 'localhost',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': Buffer.byteLength(form),
            connection: 'close',
          },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end(form);
    });
  const lane = async (i: number) => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const { status, body } = await post(options.form(i));
      latencies.push(performance.now() - t0);
      if (!options.answered(i, status, body)) failed++;
    }
  };
  await Promise.all(Array.from({ length: options.lanes }, (_, i) => lane(i)));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    failed,
    reqPerSec: latencies.length / elapsed,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
  };
}
