import type { Handle } from '../../storage/handle.js';
import {
  deleteBrandImagesExcept,
  deleteBranding,
  findBrandImage,
  findBrandings,
  insertBrandImage,
  listOrgBrandings,
  type StoredBranding,
  upsertBranding,
} from '../../storage/repos/brandings.js';
import { recordUpdated } from '../audit/audit.js';
import { clock } from '../clock.js';
import { orgListThrough } from '../credential-cache.js';
import { getClient } from '../directory/clients.js';
import type { DirectoryDeps } from '../directory/deps.js';
import { checkName } from '../directory/validate.js';
import type { Actor, BrandImage, Branding, Org } from '../types.js';
import { brandColour } from './colours.js';
import { checkImage, EXTENSIONS } from './images.js';
import { brandLink } from './links.js';

/** A brand with nothing set: the pages' own look. */
export const NO_BRANDING: Readonly<Branding> = Object.freeze({
  displayName: null,
  logo: null,
  favicon: null,
  primary: null,
  background: null,
  termsUrl: null,
  privacyUrl: null,
});

const FIELDS = Object.keys(NO_BRANDING) as (keyof Branding)[];

/** What an update sets: a field left out keeps its value, null clears it; images as their bytes. */
export interface BrandingChange {
  displayName?: string | null;
  logo?: Buffer | null;
  favicon?: Buffer | null;
  primary?: string | null;
  background?: string | null;
  termsUrl?: string | null;
  privacyUrl?: string | null;
}

/** Longest display name. */
export const MAX_DISPLAY_NAME = 100;

/** An image's file name in its URL: `<sha256>.<ext>`. */
export const imageFileOf = (image: BrandImage): string => `${image.sha256}.${EXTENSIONS[image.mediaType]}`;

/** The org's own brand (`clientId` null) or one client's, as set: null fields are not set. */
async function storedBranding(store: Handle, org: Org, clientId: string | null): Promise<Branding> {
  const rows = await findBrandings(store, org.id, clientId === null ? [''] : [clientId]);
  return rows[0]?.branding ?? { ...NO_BRANDING };
}

/** The org's brand as set (owners read it; DESIGN §21). */
export const orgBranding = (deps: Pick<DirectoryDeps, 'store'>, org: Org): Promise<Branding> =>
  storedBranding(deps.store, org, null);

/** A client's own brand as set (404 `not_found` for a client that is not the org's). */
export async function clientBranding(deps: DirectoryDeps, org: Org, clientId: string): Promise<Branding> {
  const client = await getClient(deps, org, clientId);
  return storedBranding(deps.store, org, client.id);
}

/**
 * Every brand of the org, from the change-notified cache when the runtime keeps one (every hosted
 * page reads them; migration 060 announces `brandings` changes), else as stored now.
 */
async function orgBrandings(
  deps: Pick<DirectoryDeps, 'store' | 'brandings'>,
  org: Org,
): Promise<readonly StoredBranding[]> {
  return orgListThrough(deps.brandings, org.id, () => listOrgBrandings(deps.store, org.id));
}

/**
 * The brand a page or mail of `org` shows: the org's, with each field the client (when the page is
 * reached for one) sets in its place. One read of both.
 */
export async function effectiveBranding(
  deps: Pick<DirectoryDeps, 'store' | 'brandings'>,
  org: Org,
  clientId: string | null,
): Promise<Branding> {
  const rows = deps.brandings
    ? (await orgBrandings(deps, org)).filter((r) => r.clientId === '' || r.clientId === clientId)
    : await findBrandings(deps.store, org.id, clientId === null ? [''] : ['', clientId]);
  const own = rows.find((r) => r.clientId === '')?.branding ?? NO_BRANDING;
  const client = clientId === null ? undefined : rows.find((r) => r.clientId === clientId)?.branding;
  return client === undefined ? { ...own } : over(own, client);
}

/** Merges a client's brand over its org's, field by field. */
const over = (own: Branding, client: Branding): Branding =>
  Object.fromEntries(FIELDS.map((f) => [f, client[f] ?? own[f]])) as unknown as Branding;

/**
 * Every brand a page of `org` can show: the org's own, and the org's with each client's fields in
 * their place (what the stylesheets served at `/branding/<hash>.css` are made from).
 */
export async function everyEffectiveBranding(
  deps: Pick<DirectoryDeps, 'store' | 'brandings'>,
  org: Org,
): Promise<Branding[]> {
  const rows = await orgBrandings(deps, org);
  const own = rows.find((r) => r.clientId === '')?.branding ?? NO_BRANDING;
  return [{ ...own }, ...rows.filter((r) => r.clientId !== '').map((r) => over(own, r.branding))];
}

/** One image of the org's brands by its SHA-256 (hex), with its bytes; null when the org has none such. */
export const brandImage = (deps: Pick<DirectoryDeps, 'store'>, org: Org, sha256: string) =>
  findBrandImage(deps.store, org.id, sha256);

/** What the audit entry says of a brand: its fields, images by file name (never their bytes). */
const snapshot = (clientId: string | null, b: Branding) => ({
  ...(clientId === null ? {} : { clientId }),
  displayName: b.displayName,
  logo: b.logo === null ? null : imageFileOf(b.logo),
  favicon: b.favicon === null ? null : imageFileOf(b.favicon),
  primary: b.primary,
  background: b.background,
  termsUrl: b.termsUrl,
  privacyUrl: b.privacyUrl,
});

/**
 * Every value of `change` checked (each refusal names its field): the name as any name (markup is
 * text wherever it is shown), colours for contrast, links https, images by their bytes.
 */
function checkedChange(change: BrandingChange) {
  const keep = <T, U>(v: T | null | undefined, check: (v: T) => U): U | null | undefined =>
    v === undefined ? undefined : v === null ? null : check(v);
  return {
    displayName: keep(change.displayName, (v) => checkName('display_name', v, MAX_DISPLAY_NAME)),
    logo: keep(change.logo, (v) => checkImage('logo', v)),
    favicon: keep(change.favicon, (v) => checkImage('favicon', v)),
    primary: keep(change.primary, (v) => brandColour('primary', v)),
    background: keep(change.background, (v) => brandColour('background', v)),
    termsUrl: keep(change.termsUrl, (v) => brandLink('terms_url', v)),
    privacyUrl: keep(change.privacyUrl, (v) => brandLink('privacy_url', v)),
  };
}

/**
 * Sets or clears fields of the org's brand (`clientId` null) or a client's, all or none: each value
 * checked first, images stored under the org by their hash, images no brand of the org names any
 * more removed. Audited as one `branding.updated` entry (which feeds webhooks) when anything
 * changed, with the brand before and after.
 */
export async function updateBranding(
  deps: DirectoryDeps,
  org: Org,
  clientId: string | null,
  change: BrandingChange,
  actor: Actor,
): Promise<Branding> {
  const subject = clientId === null ? null : (await getClient(deps, org, clientId)).id;
  const checked = checkedChange(change);
  return deps.unitOfWork.run(async (tx) => {
    const now = clock.now();
    const before = await storedBranding(tx, org, subject);
    const after: Branding = { ...before };
    for (const field of ['logo', 'favicon'] as const) {
      const image = checked[field];
      if (image === undefined) continue;
      if (image !== null) await insertBrandImage(tx, org.id, image, now);
      after[field] =
        image === null
          ? null
          : { sha256: image.sha256, mediaType: image.mediaType, width: image.width, height: image.height };
    }
    for (const field of ['displayName', 'primary', 'background', 'termsUrl', 'privacyUrl'] as const) {
      const value = checked[field];
      if (value !== undefined) after[field] = value;
    }
    if (JSON.stringify(before) === JSON.stringify(after)) return after;
    if (FIELDS.every((f) => after[f] === null)) await deleteBranding(tx, org.id, subject ?? '');
    else await upsertBranding(tx, org.id, subject ?? '', after, now);
    // Images no brand of the org names any more are dropped (an old logo's URL then answers 404).
    const named = (await listOrgBrandings(tx, org.id)).flatMap(({ branding: b }) =>
      [b.logo, b.favicon].flatMap((i) => (i === null ? [] : [i.sha256])),
    );
    await deleteBrandImagesExcept(tx, org.id, named);
    const snapshots = { before: snapshot(subject, before), after: snapshot(subject, after) };
    await recordUpdated(tx, { orgId: org.id, actor, at: now }, 'branding', snapshots);
    return after;
  });
}
