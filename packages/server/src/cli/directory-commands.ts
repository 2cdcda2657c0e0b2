import {
  createDirectory,
  deleteDirectory,
  pageOfDirectories,
  rotateDirectoryToken,
  scimBaseUrl,
} from '../domain/scim/index.js';
import { type Org, type ScimDirectory, SYSTEM } from '../domain/types.js';
import { required } from './args.js';
import { deletion, inOrg, listing } from './in-org.js';
import type { Commands } from './usage.js';

type DirectoryCommand = 'directory create' | 'directory list' | 'directory rotate-token' | 'directory delete';

/** A directory as the management API's view has it (camelCase, like every CLI answer), never its token. */
const shown = (deps: Parameters<typeof scimBaseUrl>[0], org: Org, d: ScimDirectory) => ({
  id: d.id,
  name: d.name,
  connection: d.connectionId,
  scimBaseUrl: scimBaseUrl(deps, org),
  createdAt: new Date(d.createdAt).toISOString(),
  updatedAt: new Date(d.updatedAt).toISOString(),
});

/** SCIM directories (DESIGN §19), through the domain functions the management API uses. */
export const DIRECTORY_COMMANDS: Commands<DirectoryCommand> = {
  'directory create'(f) {
    const [slug, name] = [required(f.org, 'org'), required(f.name, 'name')];
    return inOrg(slug, async (deps, org) => {
      const { directory, token } = await createDirectory(
        deps,
        org,
        { name, connection: f.connection },
        SYSTEM,
      );
      return { ...shown(deps, org, directory), token };
    });
  },

  'directory list': listing(
    async (deps, org) => (await pageOfDirectories(deps, org, { page: 0, perPage: 10_000 })).entries,
    (d, deps, org) => shown(deps, org, d),
  ),

  'directory rotate-token'(f) {
    const [slug, id] = [required(f.org, 'org'), required(f.id, 'id')];
    return inOrg(slug, async (deps, org) => {
      const { directory, token } = await rotateDirectoryToken(deps, org, id, SYSTEM);
      return { ...shown(deps, org, directory), token };
    });
  },

  'directory delete': deletion(deleteDirectory),
};
