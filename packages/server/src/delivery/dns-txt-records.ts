import { Resolver } from 'node:dns/promises';
import {
  TXT_RECORD_MAX_CHARS,
  TXT_RECORDS_READ,
  type TxtAnswer,
  type TxtRecords,
} from '../domain/custom-domains/index.js';

/** Per server and try (c-ares's own timer), and the whole lookup's limit whatever the servers do. */
const TRY_TIMEOUT_MS = 2000;
const TRIES = 2;
const LOOKUP_DEADLINE_MS = 10_000;

/** The answers that mean "the servers answered, and there is nothing there". */
const ABSENT = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * A custom domain's TXT records, asked of `servers` (TESSERA_DNS_SERVERS; null: the system's
 * resolvers) with node:dns's Resolver, a fresh one per lookup so a cancelled one cannot stall the
 * next. A server that never answers costs the tries' timeouts, and a lookup is cancelled after
 * LOOKUP_DEADLINE_MS in any case: a verification never hangs. Many or long records are cut to what
 * the domain reads; their text is never logged nor returned to the caller.
 */
export function dnsTxtRecords(servers: readonly string[] | null): TxtRecords {
  return {
    async lookup(name: string): Promise<TxtAnswer> {
      const resolver = new Resolver({ timeout: TRY_TIMEOUT_MS, tries: TRIES });
      if (servers !== null) resolver.setServers([...servers]);
      const deadline = setTimeout(() => resolver.cancel(), LOOKUP_DEADLINE_MS);
      try {
        const records = await resolver.resolveTxt(name);
        const values = records
          .slice(0, TXT_RECORDS_READ)
          .map((chunks) => chunks.join('').slice(0, TXT_RECORD_MAX_CHARS));
        return values.length === 0 ? { kind: 'none' } : { kind: 'records', values };
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        return typeof code === 'string' && ABSENT.has(code) ? { kind: 'none' } : { kind: 'unreachable' };
      } finally {
        clearTimeout(deadline);
      }
    },
  };
}
