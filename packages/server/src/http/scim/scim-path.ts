/**
 * Identity providers build SCIM addresses by appending `/Users` or `/Groups` to the base URL they were
 * given, and the base URL Tessera hands out ends in `/`: `…/scim/v2//Users` is meant as `…/scim/v2/Users`.
 * Only the slashes right after `/scim/v2` are collapsed; every other path is routed as written.
 */
const DOUBLED = /^\/scim\/v2\/{2,}/;

export const collapseScimSlashes = (url: string): string =>
  DOUBLED.test(url) ? url.replace(DOUBLED, '/scim/v2/') : url;
