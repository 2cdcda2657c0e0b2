// The part of autocannon's API this benchmark uses (the package ships no types).
declare module 'autocannon' {
  export interface Stats {
    average: number;
    mean: number;
    p99: number;
    total: number;
  }
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request) => Request;
  }
  export interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    requests?: Request[];
  }
  export interface Result {
    requests: Stats;
    latency: Stats;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
