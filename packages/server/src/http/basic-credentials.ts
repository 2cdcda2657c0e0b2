/**
 * The client id and secret of an `Authorization: Basic` header (RFC 6749 §2.3.1 / Appendix B: each
 * half is form-urlencoded before base64), or null when the header is not well-formed Basic.
 */
export function parseBasicCredentials(header: string): { clientId: string; secret: string } | null {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(header);
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  try {
    return {
      clientId: formDecoded(decoded.slice(0, colon)),
      secret: formDecoded(decoded.slice(colon + 1)),
    };
  } catch {
    return null;
  }
}

const formDecoded = (value: string): string => decodeURIComponent(value.replaceAll('+', ' '));
