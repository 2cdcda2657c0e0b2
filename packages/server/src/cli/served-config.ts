import { type Config, ConfigError, loadConfig } from '../config/config.js';
import { type ServedUrl, servedUrl, servedUrlOf } from '../domain/served-url.js';
import type { Handle } from '../storage/handle.js';

export const UNKNOWN_URL =
  "the service's URL is unknown: `tessera serve` records the URL it serves at when it starts, and none " +
  'has started on this database yet; start it once, or set TESSERA_URL (and TESSERA_ISSUER_DOMAIN if ' +
  'the service has it) to what the service is started with';

/**
 * The configuration an admin command builds URLs with: the URL settings `tessera serve` recorded at
 * its last start, whatever the command's own environment says (a CLI run without TESSERA_URL, or with
 * another PORT, would otherwise print and mail URLs the service does not answer at). Before any serve
 * has started: the command's own TESSERA_URL when it sets one; without it the command refuses before
 * it does anything (a ConfigError saying why), rather than guess `http://localhost:$PORT`.
 */
export async function servedConfig(
  store: Handle,
  own: Config,
  env: NodeJS.ProcessEnv,
): Promise<{ config: Config; recorded: boolean; warning: string | null }> {
  const served = await servedUrl(store);
  if (served !== null) {
    const config = loadConfig({ ...env, ...served });
    return { config, recorded: true, warning: disagreement(own, env, served) };
  }
  if (env.TESSERA_URL) return { config: own, recorded: false, warning: null };
  throw new ConfigError(UNKNOWN_URL);
}

/** A line when the command's own TESSERA_URL / TESSERA_ISSUER_DOMAIN differ from the service's. */
function disagreement(own: Config, env: NodeJS.ProcessEnv, served: ServedUrl): string | null {
  if (!env.TESSERA_URL && !env.TESSERA_ISSUER_DOMAIN && !env.TESSERA_ISSUER_STYLE) return null;
  const mine = servedUrlOf(own);
  if (
    mine.TESSERA_URL === served.TESSERA_URL &&
    mine.TESSERA_ISSUER_DOMAIN === served.TESSERA_ISSUER_DOMAIN &&
    mine.TESSERA_ISSUER_STYLE === served.TESSERA_ISSUER_STYLE
  )
    return null;
  return (
    `this command's TESSERA_URL ${mine.TESSERA_URL} (${describe(mine)}) is not what ` +
    `the service last started with, ${served.TESSERA_URL} (${describe(served)}): ` +
    "URLs are printed with the service's"
  );
}

const describe = (url: ServedUrl) =>
  url.TESSERA_ISSUER_STYLE === 'path' ? 'path issuers' : `issuer domain ${url.TESSERA_ISSUER_DOMAIN}`;
