// The peer of the delivery bench: the machine's HTTPS limit as a plain Node client reaches it. The
// same receiver, the same signed payloads the worker sent, the same number in flight, one keep-alive
// agent, and nothing else: no database, no signing, no address checks.
import { Agent, request } from 'node:https';

export interface PlainRequest {
  headers: Record<string, string>;
  body: string;
}

/** POSTs every request to `url`, `concurrency` at a time; answers requests per second. */
export async function plainHttpsRate(
  url: string,
  requests: readonly PlainRequest[],
  concurrency: number,
  ca: string,
): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, ca });
  const post = (r: PlainRequest) =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'webhook-id': r.headers['webhook-id'] ?? '',
            'webhook-timestamp': r.headers['webhook-timestamp'] ?? '',
            'webhook-signature': r.headers['webhook-signature'] ?? '',
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(r.body)),
            'user-agent': 'plain-node-https',
          },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 204 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(r.body);
    });
  try {
    // Warm-up: open the connections first, as the worker's agent has them open by then.
    await Promise.all(requests.slice(0, concurrency).map(post));
    let next = 0;
    const started = performance.now();
    const lane = async () => {
      while (next < requests.length) await post(requests[next++] as PlainRequest);
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    return (requests.length / (performance.now() - started)) * 1000;
  } finally {
    agent.destroy();
  }
}
