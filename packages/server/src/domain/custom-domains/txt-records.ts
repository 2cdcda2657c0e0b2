/**
 * The port domain verification asks DNS through (DESIGN §21): delivery/dns-txt-records.ts answers
 * it with node:dns, asking the servers TESSERA_DNS_SERVERS names. The domain sees only this.
 */
export type TxtAnswer =
  /** The TXT records at the name, each one's strings joined (RFC 7208 §3.3), at most TXT_RECORDS_READ of them. */
  | { kind: 'records'; values: string[] }
  /** The servers answered: no such name, or no TXT record at it. */
  | { kind: 'none' }
  /** No answer: every server timed out, refused or failed (SERVFAIL). */
  | { kind: 'unreachable' };

export interface TxtRecords {
  lookup(name: string): Promise<TxtAnswer>;
}

/** How many TXT records of one name are read, and how long each may be: an answer past these is cut. */
export const TXT_RECORDS_READ = 50;
export const TXT_RECORD_MAX_CHARS = 1024;
