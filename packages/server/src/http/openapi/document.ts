import type { Config } from '../../config/config.js';
import { OPERATIONS } from '../declarations.js';
import { buildDocument, openApiPath } from './build-document.js';
import type { Json } from './components.js';

/** Every documented operation (http/declarations.ts); a test checks it against the routes that exist. */
export { OPERATIONS, openApiPath };

/**
 * The hosted HTML pages (login, sign-up, second factor, consent, the device pages, profile, password
 * reset, address verification, invitations, enterprise sign-in's way out and back) are left out: they are forms a
 * browser fills in, not an API; their fields are a contract between each page and its own HTML
 * (with CSRF tokens), reached through /oauth/authorize, POST /profile/session and the links of
 * mails. So is the web console (`/`, which sends browsers to `/console/`, and the app's files under
 * it). What is declared among those paths is not a page but an operation, documented: the JSON the
 * pages' scripts call (the passkey ceremonies, POST /profile/session) and the SAML metadata.
 */
export function isHtmlPage(method: string, path: string): boolean {
  const declared = OPERATIONS.some((op) => op.method.toUpperCase() === method && op.path === path);
  return (
    !declared &&
    (path === '/' ||
      /^\/(login|signup|consent|device|profile|password|email|invitation|console|sso|saml)(\/|$)/.test(path))
  );
}

/**
 * The OpenAPI 3.1 document of the whole HTTP API, for this deployment's hosts: what GET /openapi.json
 * answers with (http/openapi/route.ts builds it from the same list).
 */
export function openApiDocument(config: Config, version: string): Json {
  return buildDocument(config, version, OPERATIONS);
}
