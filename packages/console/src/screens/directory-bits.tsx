import type { Directory, DirectoryWithToken } from '../api/types.js';
import { CopyValue } from '../components/copy-value.js';
import { Link } from '../components/link.js';
import { Done } from '../components/notices.js';
import { SecretOnce } from '../components/secret-once.js';
import { oneTimeNews } from '../news.js';
import { orgHref } from '../router.js';

/** What the directory screens share: the owners-only note, the base URL to copy, a token shown once. */

/** Directories are the API's owner-only lists: a member sees why there is nothing here. */
export function DirectoriesOwnersOnly() {
  return (
    <p class="notice info">
      Only owners of this organization can see and change its SCIM directories: their tokens create and delete
      its users.
    </p>
  );
}

/** A line for the list to announce once (a directory just deleted). */
export const directoryNews = oneTimeNews();

/** The SCIM base URL an owner gives the identity provider, with where each provider asks for it. */
export function BaseUrl({ directory }: { directory: Directory }) {
  return (
    <CopyValue
      label="SCIM base URL"
      value={directory.scim_base_url}
      hint="Okta: SCIM connector base URL. Microsoft Entra ID: Tenant URL. Authentication: HTTP header (bearer token)."
    />
  );
}

/**
 * A directory's bearer token, the once the API answers it (created or rotated): the base URL beside
 * it, a copy button, and gone when dismissed or when the page is left or reloaded.
 */
export function TokenOnce({
  directory,
  what,
  onDismiss,
}: {
  directory: DirectoryWithToken;
  what: string;
  onDismiss: () => void;
}) {
  return (
    <>
      <Done>{what}</Done>
      <BaseUrl directory={directory} />
      <SecretOnce label="SCIM bearer token" value={directory.token} onDismiss={onDismiss} />
    </>
  );
}

/** A directory's connection by name, linked; none: any address. */
export function ConnectionName({
  slug,
  id,
  connections,
}: {
  slug: string;
  id: string | null;
  connections: readonly { id: string; name: string }[];
}) {
  if (id === null) return <span class="muted">None</span>;
  const found = connections.find((c) => c.id === id);
  return <Link href={orgHref(slug, 'connections', id)}>{found ? found.name : id}</Link>;
}
