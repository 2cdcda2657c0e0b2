import type { LookupAddress } from 'node:dns';
import dns from 'node:dns';
import { forbiddenReason } from '../domain/address-policy.js';

/** Resolves a host name to every address it has (the system resolver unless a test gives one). */
export type Resolver = (hostname: string, family: 0 | 4 | 6) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname, family) =>
  new Promise((resolve, reject) =>
    // `dns.lookup` is read at call time: it honours /etc/hosts, like every other client on the host.
    dns.lookup(hostname, { all: true, family, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/**
 * A connection refused by the address policy. The message names what the owner wrote (the IP literal, or
 * the host name) and why, never an address a name resolved to: owners read these errors, and the addresses
 * behind internal names are the resolver's, not theirs to map.
 */
export class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
  readonly code = 'ERR_WEBHOOK_ADDRESS_REFUSED';
}

/**
 * Throws RefusedAddressError unless private addresses are allowed or `address` is public; `hostname` is
 * the name `address` was resolved from, when it was.
 */
export function checkAddress(address: string, allowPrivate: boolean, hostname?: string): void {
  if (allowPrivate) return;
  const reason = forbiddenReason(address);
  if (reason === null) return;
  throw new RefusedAddressError(
    hostname === undefined
      ? `refused to connect to ${address}: ${reason}`
      : `refused to connect to ${hostname}: an address it resolves to is ${reason}`,
  );
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The `lookup` handed to the socket: it resolves once, checks every address it got, and gives the
 * socket only checked addresses, so what was checked is what gets dialled (no second resolution for a
 * rebinding DNS server to answer differently). TLS still uses the host name for SNI and the
 * certificate check, and the Host header still names it. A name with any refused address is refused
 * as a whole.
 */
export function checkedLookup(resolver: Resolver, allowPrivate: boolean) {
  return (
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: LookupCallback,
  ) => {
    const family = options.family === 4 || options.family === 6 ? options.family : 0;
    resolver(hostname, family).then(
      (addresses) => {
        try {
          if (addresses.length === 0) throw new Error(`${hostname} has no address`);
          for (const a of addresses) checkAddress(a.address, allowPrivate, hostname);
        } catch (error) {
          return callback(error as NodeJS.ErrnoException, '');
        }
        const first = addresses[0] as LookupAddress;
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
