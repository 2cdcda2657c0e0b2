// What the sign-in bench needs, written straight into the store before the server starts (the bench's
// own runtime, closed again): the org `bench` with one first-party public client (PKCE, no consent
// page) and USERS people with a password, one per sign-in loop.

import { loadConfig } from '../../packages/server/src/config/config.js';
import { createClient } from '../../packages/server/src/domain/directory/clients.js';
import { createOrg } from '../../packages/server/src/domain/directory/orgs.js';
import { createUser } from '../../packages/server/src/domain/directory/users.js';
import { SYSTEM } from '../../packages/server/src/domain/types.js';
import { openRuntime } from '../../packages/server/src/runtime.js';

export const PASSWORD = 'bench password 1';
export const REDIRECT_URI = 'http://127.0.0.1:9/cb';

export interface Cast {
  clientId: string;
  /** One email per sign-in loop, all with PASSWORD. */
  emails: string[];
}

export async function setUp(env: NodeJS.ProcessEnv, users: number): Promise<Cast> {
  const runtime = await openRuntime(loadConfig(env), () => {});
  try {
    const { deps } = runtime;
    const { org } = await createOrg(deps, {
      slug: 'bench',
      ownerEmail: 'owner@bench.test',
      ownerPassword: PASSWORD,
    });
    const { client } = await createClient(
      deps,
      org,
      { name: 'Bench app', kind: 'public', redirectUris: [REDIRECT_URI], grantTypes: ['authorization_code'] },
      SYSTEM,
    );
    const emails: string[] = [];
    for (let i = 0; i < users; i++) {
      const email = `user-${i}@bench.test`;
      await createUser(deps, org, { email, password: PASSWORD }, SYSTEM);
      emails.push(email);
    }
    return { clientId: client.id, emails };
  } finally {
    await runtime.close();
  }
}
