// What the refresh bench needs, written straight into the store before the server starts (the bench's
// own runtime, closed again): the org `bench` with one confidential client that may use both grants,
// and SESSIONS users, each signed in to it with `openid` and holding a refresh token.

import { loadConfig } from '../../packages/server/src/config/config.js';
import { createClient } from '../../packages/server/src/domain/directory/clients.js';
import { createOrg } from '../../packages/server/src/domain/directory/orgs.js';
import { createUser } from '../../packages/server/src/domain/directory/users.js';
import { openSession } from '../../packages/server/src/domain/sessions/sessions.js';
import { PASSWORD_SIGN_IN } from '../../packages/server/src/domain/sign-in/browser-sessions.js';
import { addRefreshToken } from '../../packages/server/src/domain/tokens/user-tokens.js';
import { SYSTEM } from '../../packages/server/src/domain/types.js';
import { openRuntime } from '../../packages/server/src/runtime.js';

export interface Cast {
  clientId: string;
  clientSecret: string;
  /** One refresh token per session; each is rotated by every refresh. */
  refreshTokens: string[];
}

export async function setUp(env: NodeJS.ProcessEnv, sessions: number): Promise<Cast> {
  const runtime = await openRuntime(loadConfig(env), () => {});
  try {
    const { deps } = runtime;
    const { org } = await createOrg(deps, {
      slug: 'bench',
      ownerEmail: 'owner@bench.test',
      ownerPassword: 'bench password 1',
    });
    const { client, secret } = await createClient(
      deps,
      org,
      {
        name: 'Bench web',
        kind: 'confidential',
        redirectUris: ['http://127.0.0.1:9/cb'],
        grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
      },
      SYSTEM,
    );
    const refreshTokens: string[] = [];
    for (let i = 0; i < sessions; i++) {
      const { user } = await createUser(
        deps,
        org,
        { email: `user-${i}@bench.test`, password: 'bench password 1' },
        SYSTEM,
      );
      const now = Date.now();
      const token = await deps.unitOfWork.run(async (trx) => {
        const session = await openSession(
          trx,
          org,
          { userId: user.id, clientId: client.id, ...PASSWORD_SIGN_IN, scope: 'openid email' },
          now,
        );
        return addRefreshToken(trx, client, session, now);
      });
      if (token === undefined) throw new Error('the client got no refresh token');
      refreshTokens.push(token);
    }
    return { clientId: client.id, clientSecret: secret as string, refreshTokens };
  } finally {
    await runtime.close();
  }
}
