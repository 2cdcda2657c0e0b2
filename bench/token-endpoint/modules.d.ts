// Neither package ships types and no @types package is installed; these declare only what the bench uses.

declare module 'autocannon' {
  interface Stats {
    mean: number;
    p99: number;
    total: number;
  }
  export interface Result {
    requests: Stats;
    latency: Stats;
    non2xx: number;
    errors: number;
    timeouts: number;
    '2xx': number;
  }
  export interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
  }
  /** A run: awaited for its result; `response` gives each response's latency in ms (hrtime, not rounded). */
  export interface Run extends PromiseLike<Result> {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, latencyMs: number) => void,
    ): Run;
  }
  export default function autocannon(options: Options): Run;
}

declare module 'oidc-provider' {
  import type { RequestListener } from 'node:http';
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): RequestListener;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
