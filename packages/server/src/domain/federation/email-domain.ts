/**
 * The domain of an address, as connections name theirs (`domains`, `hosted_domain`: ASCII lower
 * case, an IDN in its `xn--` form), or null when it has any other character: such an address is in
 * no connection's domain. Lower-casing first would not do: String.toLowerCase maps some non-ASCII
 * letters onto ASCII ones (U+212A KELVIN SIGN to `k`), so an upstream vouching for a mailbox at
 * `\u212Ait.test`, another domain, would have had it read as `kit.test`.
 */
export function emailDomain(email: string): string | null {
  return asciiLower(email.slice(email.lastIndexOf('@') + 1));
}

/** `text` in lower case when it is printable ASCII, else null. */
export function asciiLower(text: string): string | null {
  return /^[\x21-\x7e]+$/.test(text) ? text.toLowerCase() : null;
}
