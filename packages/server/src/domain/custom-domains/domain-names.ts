import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import type { Config } from '../../config/config.js';
import { failApi } from '../errors.js';

/** The label the ownership record lives under: `_tessera-challenge.<domain>` (DESIGN §21). */
export const CHALLENGE_LABEL = '_tessera-challenge';

/** The record's name for `domain`. */
export const challengeNameOf = (domain: string): string => `${CHALLENGE_LABEL}.${domain}`;

/** A DNS name is at most 253 characters (RFC 1035 §2.3.4); the challenge's name must fit too. */
export const DOMAIN_MAX_CHARS = 253 - CHALLENGE_LABEL.length - 1;

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The host name of a Host-like value (`id.example.com:8443` → `id.example.com`). */
const hostNameOf = (host: string): string => host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');

const isUnder = (name: string, parent: string): boolean => name === parent || name.endsWith(`.${parent}`);

/**
 * A custom domain as an owner typed it, made the one form it is stored and compared in: IDNA
 * A-labels (`bücher.example` → `xn--bcher-kva.example`), lower case, no trailing dot. Refused: an
 * IP literal, a port, a path or anything else a URL carries, a single label, a label over 63
 * characters or a name too long for its challenge record, a numeric top-level label (what an
 * IPv4 address looks like), and a name equal to or under `localhost` or one of Tessera's own
 * hosts (TESSERA_URL's, the org hosts' TESSERA_ISSUER_DOMAIN): those are Tessera's to route.
 */
export function checkDomainName(config: Pick<Config, 'baseHost' | 'issuerDomain'>, raw: string): string {
  const invalid = (why: string): never => failApi('domain.name.invalid', `name: ${why}`);
  if (raw.length === 0 || raw.length > 1000) invalid('must be a host name such as login.example.com');
  let name = raw.trim().toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\s/\\:@?#[\]%*\u0000-\u001f\u007f]/.test(name))
    invalid('a bare host name, without scheme, port, path or wildcard');
  if (isIP(name) !== 0) invalid('an IP address is not a domain');
  const ascii = domainToASCII(name);
  if (ascii === '' || isIP(ascii) !== 0) invalid('not a valid internationalized domain name');
  for (const own of ['localhost', hostNameOf(config.baseHost), hostNameOf(config.issuerDomain)])
    if (isUnder(ascii, own))
      failApi(
        'domain.name.reserved',
        `name: ${ascii} is ${ascii === own ? '' : 'under '}${own}, which Tessera serves itself`,
      );
  if (ascii.length > DOMAIN_MAX_CHARS) invalid(`must be at most ${DOMAIN_MAX_CHARS} characters`);
  const labels = ascii.split('.');
  if (labels.length < 2) invalid('must have at least two labels (login.example.com)');
  if (!labels.every((label) => LABEL.test(label)))
    invalid('each label must be 1-63 letters, digits or hyphens, not starting or ending with a hyphen');
  if (/^[0-9]+$/.test(labels.at(-1) ?? '')) invalid('the top-level label cannot be numeric');
  return ascii;
}
