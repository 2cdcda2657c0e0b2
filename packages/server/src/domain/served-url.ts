import type { Config } from '../config/config.js';
import type { Handle } from '../storage/handle.js';
import { findServiceSetting, putServiceSetting } from '../storage/repos/service-settings.js';

const NAME = 'served_url';

/**
 * The URL settings `tessera serve` started with, as the environment names them: every URL Tessera
 * prints or mails (issuers, callback URLs, links) is built from them. Recorded at each serve start,
 * read by the CLI, which may run with another environment (or none).
 */
export interface ServedUrl {
  TESSERA_URL: string;
  /** The org hosts' domain; empty with path issuers, which have no org hosts. */
  TESSERA_ISSUER_DOMAIN: string;
  TESSERA_ISSUER_STYLE: 'host' | 'path';
}

export const servedUrlOf = (config: Config): ServedUrl => ({
  TESSERA_URL: config.baseUrl,
  TESSERA_ISSUER_DOMAIN: config.issuerStyle === 'path' ? '' : config.issuerDomain,
  TESSERA_ISSUER_STYLE: config.issuerStyle,
});

/** Records the URL settings this serve process answers at (the last node started wins: they agree). */
export async function recordServedUrl(store: Handle, config: Config, now: number): Promise<void> {
  await putServiceSetting(store, NAME, JSON.stringify(servedUrlOf(config)), now);
}

/** The URL settings the service last started with, or null when no serve has started on this database. */
export async function servedUrl(store: Handle): Promise<ServedUrl | null> {
  const text = await findServiceSetting(store, NAME);
  if (text === null) return null;
  let value: Partial<ServedUrl> | null;
  try {
    value = JSON.parse(text) as Partial<ServedUrl> | null;
  } catch {
    return null; // not written by a serve: as if none had started
  }
  if (typeof value?.TESSERA_URL !== 'string' || typeof value.TESSERA_ISSUER_DOMAIN !== 'string') return null;
  // A record from before path issuers names no style: it was a host-style start.
  const style = value.TESSERA_ISSUER_STYLE ?? 'host';
  if (style !== 'host' && style !== 'path') return null;
  return {
    TESSERA_URL: value.TESSERA_URL,
    TESSERA_ISSUER_DOMAIN: value.TESSERA_ISSUER_DOMAIN,
    TESSERA_ISSUER_STYLE: style,
  };
}
