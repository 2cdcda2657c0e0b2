import { clientCredentials } from './client-credentials.js';
import type { Grant } from './types.js';

/** Every grant type the token endpoint serves, by its `grant_type` value. */
export const GRANTS: ReadonlyMap<string, Grant> = new Map<string, Grant>([
  ['client_credentials', clientCredentials],
]);
