import type { Deps } from '../../src/domain/context.js';
import { createClient } from '../../src/domain/directory/clients.js';
import { createOrg } from '../../src/domain/directory/orgs.js';
import { SYSTEM } from '../../src/domain/types.js';

/** An org with an owner and one confidential machine client. */
export async function orgWithMachineClient(deps: Deps, slug: string) {
  const { org, issuer } = await createOrg(deps, {
    slug,
    ownerEmail: `owner@${slug}.test`,
    ownerPassword: 'owner password 1',
  });
  const { client, secret } = await createClient(
    deps,
    org,
    { name: `${slug} service`, kind: 'confidential', redirectUris: [] },
    SYSTEM,
  );
  return { org, issuer, clientId: client.id, clientSecret: secret as string };
}
