import { z } from 'zod';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { type Client, DEVICE_CODE_GRANT, type GrantType, type Org } from '../types.js';
import { MAX_REDIRECT_URIS, redirectUriProblem } from './redirect-uris.js';

/**
 * Client ID Metadata Documents (DESIGN §13, draft-ietf-oauth-client-id-metadata-document): on the
 * console issuer, a `client_id` that is an https URL with a path names a JSON document the client
 * publishes there. Tessera fetches it (delivery/client-metadata-fetcher.ts: the webhook address
 * policy, METADATA_DOCUMENT_MAX_BYTES, METADATA_DOCUMENT_TIMEOUT_MS), checks it here and uses it as
 * a registered client's metadata: public, PKCE, consent every time, the third-party note, the
 * registered-client scopes. The client has no row in `clients`; its URL is the `client_id` its
 * requests, codes, sessions, consents, audit entries and tokens' `aud` carry.
 */

export const METADATA_DOCUMENT_MAX_BYTES = 5 * 1024;
export const METADATA_DOCUMENT_TIMEOUT_MS = 5_000;
/** The longest a document is kept, whatever its Cache-Control says. */
export const METADATA_DOCUMENT_MAX_CACHE_MS = 24 * 60 * 60 * 1000;
/** How long a document without Cache-Control max-age (and without no-store/no-cache) is kept. */
export const METADATA_DOCUMENT_DEFAULT_CACHE_MS = 5 * 60 * 1000;
/** A failed fetch or an invalid document is remembered this briefly, so a burst does not refetch. */
export const METADATA_DOCUMENT_FAILURE_CACHE_MS = 10 * 1000;
/**
 * Document fetches one process runs at once, in all and per host; one more is refused at once (the
 * generic failure, never kept) rather than queued, so slow documents cannot pile up connections.
 */
export const METADATA_DOCUMENT_MAX_FETCHES = 16;
export const METADATA_DOCUMENT_MAX_FETCHES_PER_HOST = 4;
/**
 * What a client or a browser is told about any document that cannot be used (unreachable, refused
 * address, DNS, timeout, too large, invalid, too many fetches): one sentence, so the endpoint tells
 * nobody what the network looks like from here. The reason goes to the log only.
 */
export const METADATA_DOCUMENT_UNUSABLE = 'its metadata document could not be fetched or is not valid';
/** Documents kept per process at most; the oldest entry goes first. */
const MAX_CACHED_DOCUMENTS = 1000;
const MAX_URL_LENGTH = 2000;

/** What the fetcher brings back: the body and how long HTTP caching lets it be kept, or why not. */
export type FetchedDocument =
  | {
      ok: true;
      body: string;
      /** From Cache-Control: seconds of max-age, 0 for no-cache, null for no-store; undefined when absent. */
      maxAgeSeconds: number | null | undefined;
    }
  | {
      ok: false;
      /** For the log only. */
      problem: string;
      /** Refused because too many fetches run at once: not remembered, the next use tries again. */
      busy?: true;
    };

/** The port the composition fills with an HTTPS fetcher (delivery/client-metadata-fetcher.ts). */
export interface MetadataDocumentFetcher {
  /** GETs `url`; a body over `maxBytes` (default METADATA_DOCUMENT_MAX_BYTES) is a failure. */
  fetch(url: string, maxBytes?: number): Promise<FetchedDocument>;
}

/** Whether a client_id is URL-shaped (`scheme://…`): such an id is never a registered client's. */
export const isUrlClientId = (clientId: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(clientId);

/**
 * What is wrong with a client_id as a metadata document URL (the draft's §3): https, a path, no
 * fragment, no user name or password, no `.` or `..` segment; null when it is fine.
 */
export function metadataDocumentUrlProblem(clientId: string): string | null {
  if (clientId.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'is not a valid URL';
  }
  if (url.protocol !== 'https:') return 'must be an https URL';
  if (clientId.includes('#')) return 'must not have a fragment';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.pathname === '/' || url.pathname === '') return 'must have a path';
  // `new URL` has already resolved dot segments away, so they are looked for in the text as sent.
  const path = clientId.replace(/^https:\/\/[^/?#]*/i, '').split(/[?#]/)[0] ?? '';
  const dot = (segment: string) => /^(\.|%2e){1,2}$/i.test(segment);
  if (path.split('/').some(dot)) return 'must not have . or .. path segments';
  return null;
}

const urlList = z.array(z.string()).max(MAX_REDIRECT_URIS);

const DOCUMENT = z.object({
  client_id: z.string(),
  redirect_uris: urlList.min(1),
  client_name: z.string().optional(),
  token_endpoint_auth_method: z.string().optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  post_logout_redirect_uris: urlList.optional(),
  userinfo_signed_response_alg: z.string().optional(),
  backchannel_logout_uri: z.string().optional(),
  backchannel_logout_session_required: z.boolean().optional(),
  frontchannel_logout_uri: z.string().optional(),
  frontchannel_logout_session_required: z.boolean().optional(),
});

/**
 * A document's logout URI (OIDC Back-/Front-Channel Logout 1.0): registration's URI rule, and on the
 * document's own host, so a document published by anyone can only have this service post to (or
 * frame) the host that published it, never a third party's (another org's) address.
 */
function logoutUriProblem(field: string, uri: string | undefined, documentUrl: string): string | null {
  if (uri === undefined) return null;
  const problem = redirectUriProblem(uri);
  if (problem) return `${field} ${problem.rule}`;
  if (new URL(uri).hostname !== new URL(documentUrl).hostname)
    return `${field} must be on the document's host`;
  return null;
}

const GRANTS: GrantType[] = ['authorization_code', 'refresh_token'];
/** What a document may list besides: the device grant (RFC 8628), for a CLI it also signs in. */
const MAY_LIST: GrantType[] = [...GRANTS, DEVICE_CODE_GRANT];

const nameProblem = (name: string): string | null => {
  const v = name.trim();
  if (v.length === 0 || v.length > 200) return 'client_name must be 1-200 characters';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(v)) return 'client_name must not contain control characters';
  return null;
};

function urisProblem(field: string, uris: readonly string[]): string | null {
  for (const [i, uri] of uris.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) return `${field}[${i}] ${problem.rule}`;
  }
  return null;
}

/**
 * The client a fetched document describes, or what is wrong with it. Registration's rules apply
 * to its redirect URIs; it must be a public client (`token_endpoint_auth_method` `none`) of the
 * code flow, and its `client_id` must be the URL it was fetched from, character for character.
 */
export function clientFromDocument(org: Org, url: string, body: string): Client | string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return 'it is not JSON';
  }
  const parsed = DOCUMENT.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.') || 'the document';
    return `${path}: ${issue?.message ?? 'invalid'}`;
  }
  const doc = parsed.data;
  const raw = json as Record<string, unknown>;
  if (doc.client_id !== url) return 'its client_id is not the URL it was fetched from';
  if ('client_secret' in raw || 'client_secret_expires_at' in raw)
    return 'it must not contain a client secret';
  if (doc.token_endpoint_auth_method !== 'none') return 'its token_endpoint_auth_method must be "none"';
  const grants = doc.grant_types ?? GRANTS;
  if (!grants.includes('authorization_code')) return 'its grant_types must include authorization_code';
  const unknown = grants.find((g) => !MAY_LIST.includes(g as GrantType));
  if (unknown !== undefined) return `grant type "${unknown}" is not available to it`;
  if (doc.response_types?.some((r) => r !== 'code')) return 'its response_types must be ["code"]';
  const userinfoAlg = doc.userinfo_signed_response_alg;
  if (userinfoAlg !== undefined && userinfoAlg !== 'RS256')
    return 'its userinfo_signed_response_alg must be RS256 when given';
  const problem =
    urisProblem('redirect_uris', doc.redirect_uris) ??
    urisProblem('post_logout_redirect_uris', doc.post_logout_redirect_uris ?? []) ??
    logoutUriProblem('backchannel_logout_uri', doc.backchannel_logout_uri, url) ??
    logoutUriProblem('frontchannel_logout_uri', doc.frontchannel_logout_uri, url) ??
    (doc.client_name === undefined ? null : nameProblem(doc.client_name));
  if (problem !== null) return problem;
  const now = clock.now();
  return {
    id: url,
    orgId: org.id,
    name: doc.client_name?.trim() ?? new URL(url).host,
    kind: 'public',
    redirectUris: [...new Set(doc.redirect_uris)],
    postLogoutRedirectUris: [...new Set(doc.post_logout_redirect_uris ?? [])],
    grantTypes: [...new Set(grants)] as GrantType[],
    firstParty: false,
    metadataDocument: true,
    secretIssuedAt: null,
    // The default: the origins of its redirect URIs.
    allowedOrigins: null,
    ...(userinfoAlg === 'RS256' ? { userinfoSignedResponseAlg: 'RS256' as const } : {}),
    ...(doc.backchannel_logout_uri === undefined
      ? {}
      : {
          backchannelLogout: {
            uri: doc.backchannel_logout_uri,
            sessionRequired: doc.backchannel_logout_session_required === true,
          },
        }),
    ...(doc.frontchannel_logout_uri === undefined
      ? {}
      : {
          frontchannelLogout: {
            uri: doc.frontchannel_logout_uri,
            sessionRequired: doc.frontchannel_logout_session_required === true,
          },
        }),
    createdAt: now,
    updatedAt: now,
  };
}

/** How long a fetched document may be kept (ms), from its Cache-Control: capped at 24 h. */
export function keepFor(maxAgeSeconds: number | null | undefined): number {
  if (maxAgeSeconds === null) return 0;
  if (maxAgeSeconds === undefined) return METADATA_DOCUMENT_DEFAULT_CACHE_MS;
  return Math.min(maxAgeSeconds * 1000, METADATA_DOCUMENT_MAX_CACHE_MS);
}

type Outcome = { client: Client } | { problem: string };

/** Where the reason a document was not used goes (the composition's log): never to the requester. */
export type MetadataDocumentReport = (clientId: string, problem: string) => void;

/**
 * The metadata-document clients of this process: documents fetched through the port and kept in
 * memory by HTTP caching (never shared between processes, gone on restart), failures kept for
 * METADATA_DOCUMENT_FAILURE_CACHE_MS, concurrent look-ups of one URL sharing one fetch. A failure's
 * reason goes to `report`; the outcome says only METADATA_DOCUMENT_UNUSABLE.
 */
export class ClientMetadataDocuments {
  readonly #fetcher: MetadataDocumentFetcher;
  readonly #report: MetadataDocumentReport;
  readonly #cache = new Map<string, { until: number; outcome: Outcome }>();
  readonly #pending = new Map<string, Promise<Outcome>>();

  constructor(fetcher: MetadataDocumentFetcher, report: MetadataDocumentReport = () => {}) {
    this.#fetcher = fetcher;
    this.#report = report;
  }

  /** Forgets every kept document (tests, and an operator's restart does the same). */
  clear(): void {
    this.#cache.clear();
  }

  /** The client named by a metadata document URL, or what is wrong with it. */
  async lookup(org: Org, url: string): Promise<Outcome> {
    const urlProblem = metadataDocumentUrlProblem(url);
    if (urlProblem !== null) return { problem: `the client_id URL ${urlProblem}` };
    const key = `${org.id} ${url}`;
    const kept = this.#cache.get(key);
    if (kept && kept.until > clock.now()) return kept.outcome;
    this.#cache.delete(key);
    const running = this.#pending.get(key);
    if (running) return running;
    const fetching = this.#fetch(org, url)
      .then(({ outcome, keepMs }) => {
        this.#remember(key, outcome, keepMs);
        return outcome;
      })
      .finally(() => this.#pending.delete(key));
    this.#pending.set(key, fetching);
    return fetching;
  }

  async #fetch(org: Org, url: string): Promise<{ outcome: Outcome; keepMs: number }> {
    const fetched = await this.#fetcher.fetch(url);
    const unusable = { problem: METADATA_DOCUMENT_UNUSABLE };
    if (!fetched.ok) {
      this.#report(url, `could not be fetched: ${fetched.problem}`);
      return { outcome: unusable, keepMs: fetched.busy ? 0 : METADATA_DOCUMENT_FAILURE_CACHE_MS };
    }
    const client = clientFromDocument(org, url, fetched.body);
    if (typeof client === 'string') {
      this.#report(url, `is not valid: ${client}`);
      return { outcome: unusable, keepMs: METADATA_DOCUMENT_FAILURE_CACHE_MS };
    }
    return { outcome: { client }, keepMs: keepFor(fetched.maxAgeSeconds) };
  }

  #remember(key: string, outcome: Outcome, keepMs: number): void {
    if (keepMs <= 0) return;
    if (this.#cache.size >= MAX_CACHED_DOCUMENTS) {
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    this.#cache.set(key, { until: clock.now() + keepMs, outcome });
  }
}

/** Whether `org`'s issuer reads metadata documents: the console's always, an org's when its settings say so. */
export const metadataDocumentsOpen = (org: Org): boolean => org.isConsole || org.metadataDocuments;

/**
 * The metadata-document client `clientId` names on this org, or `invalid_client` saying why not.
 * The console issuer reads documents, and an org's issuer while its `metadata_documents` setting is
 * on (DESIGN §15); elsewhere (and where no fetcher is wired, as in the CLI) a URL is an unknown client.
 */
export async function metadataDocumentClient(
  documents: ClientMetadataDocuments | undefined,
  org: Org,
  clientId: string,
): Promise<Client> {
  if (!metadataDocumentsOpen(org) || documents === undefined)
    return fail('authorize.client.document_closed', 'this application is not known here');
  const outcome = await documents.lookup(org, clientId);
  if ('problem' in outcome)
    return fail('authorize.client.document_refused', `${clientId}: ${outcome.problem}`);
  return outcome.client;
}
