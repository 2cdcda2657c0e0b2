import type { BrandImage, Branding } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import { tableOf } from './keyed-rows.js';
import { orgClientRowsDeleter } from './table-records.js';

/** A stored brand: the org's (`clientId` '') or a client's (migration 052). */
export interface StoredBranding {
  clientId: string;
  branding: Branding;
}

const image = (v: unknown): BrandImage | null => {
  if (v === null || typeof v !== 'object') return null;
  const i = v as BrandImage;
  return { sha256: i.sha256, mediaType: i.mediaType, width: i.width, height: i.height };
};
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The JSON as the domain's Branding, its fields always in one order. */
function brandingOf(settings: string): Branding {
  const s = JSON.parse(settings) as Record<string, unknown>;
  return {
    displayName: text(s.displayName),
    logo: image(s.logo),
    favicon: image(s.favicon),
    primary: text(s.primary),
    background: text(s.background),
    termsUrl: text(s.termsUrl),
    privacyUrl: text(s.privacyUrl),
  };
}

/** The org's brands for these client ids ('' the org's own); absent ones are not set. */
export async function findBrandings(
  store: Handle,
  orgId: string,
  clientIds: string[],
): Promise<StoredBranding[]> {
  const rows = await opened(store)
    .selectFrom('brandings')
    .select(['client_id', 'settings'])
    .where('org_id', '=', orgId)
    .where('client_id', 'in', clientIds)
    .execute();
  return rows.map((r) => ({ clientId: r.client_id, branding: brandingOf(r.settings) }));
}

/** Every brand of the org (its own and its clients'). */
export async function listOrgBrandings(store: Handle, orgId: string): Promise<StoredBranding[]> {
  const rows = await opened(store)
    .selectFrom('brandings')
    .select(['client_id', 'settings'])
    .where('org_id', '=', orgId)
    .execute();
  return rows.map((r) => ({ clientId: r.client_id, branding: brandingOf(r.settings) }));
}

/** Sets a brand, replacing the one before. */
export async function upsertBranding(
  store: Handle,
  orgId: string,
  clientId: string,
  branding: Branding,
  updatedAt: number,
): Promise<void> {
  const settings = JSON.stringify(branding);
  await opened(store)
    .insertInto('brandings')
    .values({ org_id: orgId, client_id: clientId, settings, updated_at: updatedAt })
    .onConflict((oc) => oc.columns(['org_id', 'client_id']).doUpdateSet({ settings, updated_at: updatedAt }))
    .execute();
}

/** Removes a brand (nothing set any more). */
export const deleteBranding = orgClientRowsDeleter('brandings');

/** Keeps an image under the org by its hash (the same bytes twice are one row). */
export async function insertBrandImage(
  store: Handle,
  orgId: string,
  image: BrandImage & { bytes: Buffer },
  createdAt: number,
): Promise<void> {
  await opened(store)
    .insertInto('brand_images')
    .values({
      org_id: orgId,
      sha256: image.sha256,
      media_type: image.mediaType,
      width: image.width,
      height: image.height,
      bytes: image.bytes,
      created_at: createdAt,
    })
    .onConflict((oc) => oc.columns(['org_id', 'sha256']).doNothing())
    .execute();
}

/** Removes the org's images but those named. */
export async function deleteBrandImagesExcept(store: Handle, orgId: string, keep: string[]): Promise<void> {
  let query = opened(store).deleteFrom('brand_images').where('org_id', '=', orgId);
  if (keep.length > 0) query = query.where('sha256', 'not in', keep);
  await query.execute();
}

const images = tableOf('brand_images');

/** One of the org's images with its bytes, or null. */
export async function findBrandImage(
  store: Handle,
  orgId: string,
  sha256: string,
): Promise<(BrandImage & { bytes: Buffer }) | null> {
  const row = await images.rowWhere(store, { org_id: orgId, sha256 });
  if (row === undefined) return null;
  return {
    sha256: row.sha256,
    mediaType: row.media_type as BrandImage['mediaType'],
    width: Number(row.width),
    height: Number(row.height),
    bytes: Buffer.from(row.bytes),
  };
}
