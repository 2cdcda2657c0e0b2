import dns from 'node:dns';

/**
 * Org issuers live on `<slug>.localhost` in development. Browsers resolve every `*.localhost`
 * name to loopback (RFC 6761 §6.3); glibc does not, so Node clients in tests get the same rule here.
 */
const original = dns.lookup;
const extra = new Set<string>();
const isLocal = (host: string) =>
  /\.localhost\.?$/i.test(host) || extra.has(host.toLowerCase().replace(/\.$/, ''));

/**
 * Names a test invented (a custom domain under `.test`, RFC 6761 §6.2) that its Node clients reach on
 * loopback too, never asking any DNS server.
 */
export function resolveOnLoopback(...names: string[]): void {
  for (const name of names) extra.add(name.toLowerCase());
}

type Callback = (err: NodeJS.ErrnoException | null, address: unknown, family?: number) => void;

// biome-ignore lint/suspicious/noExplicitAny: dns.lookup has five overloads; this forwards them all.
(dns as any).lookup = function lookup(hostname: string, options: unknown, callback?: Callback) {
  const cb = (typeof options === 'function' ? options : callback) as Callback;
  const opts = (typeof options === 'object' && options !== null ? options : {}) as {
    all?: boolean;
    family?: number;
  };
  if (!isLocal(hostname))
    return (original as (...args: unknown[]) => unknown).call(dns, hostname, options, callback);
  const family = opts.family === 6 ? 6 : 4;
  const address = family === 6 ? '::1' : '127.0.0.1';
  process.nextTick(() => (opts.all ? cb(null, [{ address, family }]) : cb(null, address, family)));
};
