import { newId } from '../crypto/random.js';
import { insertClient } from '../storage/repos/clients.js';
import { takeSlot } from '../storage/repos/rate-limits.js';
import { recordAudit } from './audit.js';
import type { Deps } from './context.js';
import { fail } from './errors.js';
import { clientSnapshot } from './snapshots.js';
import { type Client, type GrantType, type Org, SYSTEM } from './types.js';

/** Limits of dynamic client registration (spec "Limits"). */
export const REGISTRATIONS_PER_WINDOW = 10;
export const REGISTRATION_WINDOW_MS = 60 * 60 * 1000;
export const DEFAULT_CLIENT_NAME = 'Registered client';

const GRANTS: GrantType[] = ['authorization_code', 'refresh_token'];

/** The registered client object of RFC 7591 §3.2.1, exactly as the spec's table shapes it. */
export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  token_endpoint_auth_method: 'none';
  grant_types: GrantType[];
  response_types: ['code'];
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function checkRedirectUris(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    return fail('invalid_redirect_uri', 'redirect_uris must be a non-empty array');
  }
  if (value.length > 20) fail('invalid_redirect_uri', 'at most 20 redirect_uris');
  return value.map((entry, i) => {
    if (typeof entry !== 'string')
      return fail('invalid_redirect_uri', `redirect_uris[${i}] must be a string`);
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return fail('invalid_redirect_uri', `redirect_uris[${i}] is not an absolute URL`);
    }
    const https = url.protocol === 'https:';
    const loopbackHttp = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
    if (!https && !loopbackHttp) {
      fail(
        'invalid_redirect_uri',
        `redirect_uris[${i}] must be https, or http on localhost, 127.0.0.1 or [::1]`,
      );
    }
    if (url.hash) fail('invalid_redirect_uri', `redirect_uris[${i}] must not have a fragment`);
    if (url.username || url.password)
      fail('invalid_redirect_uri', `redirect_uris[${i}] must not carry credentials`);
    return entry;
  });
}

function checkMetadata(body: unknown): { redirectUris: string[]; name: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail('invalid_client_metadata', 'the body must be a JSON object');
  }
  const metadata = body as Record<string, unknown>;
  const redirectUris = checkRedirectUris(metadata.redirect_uris);
  const method = metadata.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    fail('invalid_client_metadata', 'token_endpoint_auth_method must be none');
  }
  const name = metadata.client_name;
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > 200)) {
    fail('invalid_client_metadata', 'client_name must be a string of 1-200 characters');
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: names with control characters are refused
  if (typeof name === 'string' && /[\u0000-\u001f\u007f]/.test(name)) {
    fail('invalid_client_metadata', 'client_name must not contain control characters');
  }
  return {
    redirectUris: [...new Set(redirectUris)],
    name: typeof name === 'string' ? name.trim() : DEFAULT_CLIENT_NAME,
  };
}

/**
 * RFC 7591 registration of a public console-org client. The metadata is checked first (a bad
 * request does not use up the caller's allowance), then the per-IP slot is taken, then the client
 * and its audit entry are written together. Metadata the service does not use is ignored (§2).
 */
export async function registerClient(
  deps: Deps,
  consoleOrg: Org,
  body: unknown,
  ipBucket: string,
): Promise<RegisteredClient> {
  const { redirectUris, name } = checkMetadata(body);
  const now = Date.now();
  const slot = await takeSlot(
    deps.db,
    deps.dialect,
    `register:${ipBucket}`,
    REGISTRATIONS_PER_WINDOW,
    REGISTRATION_WINDOW_MS,
    now,
  );
  if (!slot.taken)
    fail('rate_limited', undefined, { 'retry-after': String(Math.ceil(slot.retryAfterMs / 1000)) });
  const client: Client = {
    id: newId('cli'),
    orgId: consoleOrg.id,
    name,
    kind: 'public',
    redirectUris,
    grantTypes: GRANTS,
    firstParty: false,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.transaction().execute(async (trx) => {
    await insertClient(trx, client, null);
    await recordAudit(trx, {
      orgId: consoleOrg.id,
      entity: 'client',
      verb: 'created',
      actor: SYSTEM,
      at: now,
      data: clientSnapshot(client),
    });
  });
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(now / 1000),
    client_name: name,
    redirect_uris: redirectUris,
    token_endpoint_auth_method: 'none',
    grant_types: GRANTS,
    response_types: ['code'],
  };
}
