// What the round-trips bench needs, written into the store before the server starts (the bench's own
// runtime, closed again): the org `bench` with a confidential client allowed every grant (machine
// tokens, the code flow, refresh), USERS people with a password, and a service account of the org with
// `org:read` (its machine token lists the org's users through the management API).

import { loadConfig } from '../../packages/server/src/config/config.js';
import { createClient } from '../../packages/server/src/domain/directory/clients.js';
import { createOrg } from '../../packages/server/src/domain/directory/orgs.js';
import { createServiceAccount } from '../../packages/server/src/domain/directory/service-accounts.js';
import { createUser } from '../../packages/server/src/domain/directory/users.js';
import { SYSTEM } from '../../packages/server/src/domain/types.js';
import { openRuntime } from '../../packages/server/src/runtime.js';

export const PASSWORD = 'bench password 1';
export const REDIRECT_URI = 'http://127.0.0.1:9/cb';

export interface Cast {
  clientId: string;
  clientSecret: string;
  emails: string[];
  account: { clientId: string; secret: string };
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
    const { client, secret } = await createClient(
      deps,
      org,
      {
        name: 'Bench web',
        kind: 'confidential',
        redirectUris: [REDIRECT_URI],
        grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
        firstParty: true,
      },
      SYSTEM,
    );
    const emails: string[] = [];
    for (let i = 0; i < users; i++) {
      const email = `user-${i}@bench.test`;
      await createUser(deps, org, { email, password: PASSWORD }, SYSTEM);
      emails.push(email);
    }
    const { account, secret: accountSecret } = await createServiceAccount(
      deps,
      org,
      { name: 'Bench lister', scopes: ['org:read'] },
      SYSTEM,
    );
    return {
      clientId: client.id,
      clientSecret: secret as string,
      emails,
      account: { clientId: account.id, secret: accountSecret },
    };
  } finally {
    await runtime.close();
  }
}
