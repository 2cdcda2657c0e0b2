/** RFC 8288 `Link` header relations (first, prev, next, last) as their URLs. */
export function parseLink(header: string | null): Record<string, string> {
  const relations: Record<string, string> = {};
  if (!header) return relations;
  for (const part of header.split(/,\s*(?=<)/)) {
    const match = /^<([^>]*)>\s*;\s*rel="?([^";]+)"?/.exec(part.trim());
    if (match?.[1] && match[2]) for (const rel of match[2].split(/\s+/)) relations[rel] = match[1];
  }
  return relations;
}
