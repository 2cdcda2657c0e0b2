import { insertClient } from '../../storage/repos/clients.js';
import { takeSlot } from '../../storage/repos/rate-limits.js';
import { clock } from '../clock.js';
import { RateLimitedError } from '../errors.js';
import { newResourceId } from '../identifiers.js';
import { type Client, type GrantType, type Org, SYSTEM } from '../types.js';
import { clientAudit } from './clients.js';
import type { DirectoryDeps } from './deps.js';

/** Limits of dynamic client registration (spec "Limits"). */
export const REGISTRATIONS_PER_WINDOW = 10;
export const REGISTRATION_WINDOW_MS = 60 * 60 * 1000;
export const DEFAULT_CLIENT_NAME = 'Registered client';

const GRANTS: GrantType[] = ['authorization_code', 'refresh_token'];

/** Whether `org`'s issuer takes registrations: the console's always, an org's when its settings say so. */
export const registrationOpen = (org: Org): boolean => org.isConsole || org.dynamicRegistration;

/** The registered client object of RFC 7591 §3.2.1, exactly as the spec's table shapes it. */
export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  token_endpoint_auth_method: 'none';
  grant_types: GrantType[];
  response_types: ['code'];
  /** Only when registered (OIDC RP-Initiated Logout §3.1): RFC 7591 returns what was registered. */
  post_logout_redirect_uris?: string[];
  /** Only when sent (OIDC Registration §2): echoed, as RFC 7591 §3.2.1 returns what was registered. */
  application_type?: ApplicationType;
  /** Only when sent (OIDC Registration §2): echoed like application_type. */
  userinfo_signed_response_alg?: 'RS256';
}

/** OIDC Dynamic Client Registration §2 `application_type`, accepted on every issuer (DESIGN §15). */
export type ApplicationType = 'web' | 'native';

/** Registration metadata as the endpoint checked it (http/oauth/registration-request.ts). */
export interface RegistrationMetadata {
  redirectUris: string[];
  /** Absent: DEFAULT_CLIENT_NAME. */
  name: string | undefined;
  /** Where RP-Initiated Logout may return to; absent: none. */
  postLogoutRedirectUris?: string[] | undefined;
  /** Accepted and echoed; the redirect URI rules are the spec's for either. */
  applicationType?: ApplicationType | undefined;
  /** `RS256`: userinfo answers the client a signed JWT; absent: JSON. */
  userinfoSignedResponseAlg?: 'RS256' | undefined;
}

/**
 * RFC 7591 registration of a public client of `org` (the console org, or an org whose issuer has
 * registration on), from metadata already checked (so a bad request does not use up the caller's
 * allowance): the per-IP slot is taken, then the client and its audit entry are written together.
 * An org's registrations count apart from the console's and from other orgs' (each issuer's 10 an
 * hour per address), so one org's callers never use up another's allowance.
 */
export async function registerClient(
  deps: DirectoryDeps,
  org: Org,
  metadata: RegistrationMetadata,
  ipBucket: string,
): Promise<RegisteredClient> {
  // The spec's registered client: redirect_uris "as submitted", client_name "the given name".
  const redirectUris = metadata.redirectUris;
  const name = metadata.name ?? DEFAULT_CLIENT_NAME;
  const now = clock.now();
  const slot = await takeSlot(
    deps.store,
    org.isConsole ? `register:${ipBucket}` : `register:${org.id}:${ipBucket}`,
    REGISTRATIONS_PER_WINDOW,
    REGISTRATION_WINDOW_MS,
    now,
  );
  if (!slot.taken)
    throw new RateLimitedError('registration.rate_limited', Math.ceil(slot.retryAfterMs / 1000));
  const client: Client = {
    id: newResourceId('client'),
    orgId: org.id,
    name,
    kind: 'public',
    redirectUris,
    postLogoutRedirectUris: metadata.postLogoutRedirectUris ?? [],
    grantTypes: GRANTS,
    firstParty: false,
    secretIssuedAt: null,
    // The default: the origins of its redirect URIs.
    allowedOrigins: null,
    ...(metadata.userinfoSignedResponseAlg
      ? { userinfoSignedResponseAlg: metadata.userinfoSignedResponseAlg }
      : {}),
    createdAt: now,
    updatedAt: now,
  };
  await deps.unitOfWork.run(async (tx) => {
    await insertClient(tx, client, null);
    await clientAudit.created(tx, { orgId: org.id, actor: SYSTEM, at: now }, client);
  });
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(now / 1000),
    client_name: name,
    redirect_uris: redirectUris,
    token_endpoint_auth_method: 'none',
    grant_types: GRANTS,
    response_types: ['code'],
    ...(metadata.postLogoutRedirectUris
      ? { post_logout_redirect_uris: metadata.postLogoutRedirectUris }
      : {}),
    ...(metadata.applicationType ? { application_type: metadata.applicationType } : {}),
    ...(metadata.userinfoSignedResponseAlg
      ? { userinfo_signed_response_alg: metadata.userinfoSignedResponseAlg }
      : {}),
  };
}
