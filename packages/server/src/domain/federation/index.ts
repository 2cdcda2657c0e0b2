/**
 * The public face of domain/federation/: what the HTTP layer, the worker and the commands may use of
 * it. Everything else in the folder is the feature's own (the lint refuses a deeper import from
 * outside the domain).
 */

export { ACCOUNT_LINK_TTL_MS, offerAccountLink } from './account-link-proofs.js';
export { testConnection } from './connection-test.js';
export {
  type Connection,
  type ConnectionChanges,
  connectionFields,
  connectionForEmail,
  connectionUrls,
  createConnection,
  deleteConnection,
  listConnections,
  type OidcSettings,
  oidcSettingsShown,
  pageOfConnections,
  requireConnection,
  updateConnection,
} from './connections.js';
export { completeFederatedSignIn, completeLinkedSignIn } from './federated-sign-in.js';
export { finishOidcSignIn, startOidcSignIn } from './oidc-upstream.js';
export {
  OidcUpstreams,
  type OidcUpstreamsOptions,
  UPSTREAM_KEY_SET_REFETCH_FLOOR_MS,
} from './oidc-upstreams.js';
export {
  FEDERATION_REQUEST_TTL_MS,
  isBrowserBinding,
  newBrowserBinding,
  peekAccountLink,
  takeAccountLink,
  takeFederatedAnswer,
} from './pending-requests.js';
export { FederationRefused } from './refusal.js';
export { holdSamlAnswer } from './saml-answer.js';
export { spMetadata, startSamlSignIn } from './saml-upstream.js';
export {
  UPSTREAM_MAX_BYTES,
  UPSTREAM_MAX_FETCHES,
  UPSTREAM_MAX_FETCHES_PER_HOST,
  UPSTREAM_TIMEOUT_MS,
  UpstreamBusy,
  type UpstreamFetch,
  type UpstreamRequest,
} from './upstream-fetch.js';
export type { UpstreamIdentity } from './upstream-identity.js';
