// What the burst needs, written straight into the store before the server starts (the bench's own
// runtime, closed again): the org `steady` with a machine client, and console users with no org yet,
// each with a console token that may create orgs (scope org:write).

import { loadConfig } from '../../packages/server/src/config/config.js';
import { createClient } from '../../packages/server/src/domain/directory/clients.js';
import { createOrg } from '../../packages/server/src/domain/directory/orgs.js';
import { createUser } from '../../packages/server/src/domain/directory/users.js';
import { openSession } from '../../packages/server/src/domain/sessions/sessions.js';
import { PASSWORD_SIGN_IN } from '../../packages/server/src/domain/sign-in/browser-sessions.js';
import { signSessionToken } from '../../packages/server/src/domain/tokens/user-tokens.js';
import { SYSTEM } from '../../packages/server/src/domain/types.js';
import { openRuntime } from '../../packages/server/src/runtime.js';
import { findConsoleOrg } from '../../packages/server/src/storage/repos/orgs.js';

export interface Cast {
  machine: { clientId: string; clientSecret: string };
  /** One console token per burst: each console user may create a limited number of orgs. */
  consoleTokens: string[];
}

export async function setUp(env: NodeJS.ProcessEnv, bursts: number): Promise<Cast> {
  const runtime = await openRuntime(loadConfig(env), () => {});
  try {
    const { deps } = runtime;
    const { org } = await createOrg(deps, {
      slug: 'steady',
      ownerEmail: 'owner@steady.test',
      ownerPassword: 'bench password 1',
    });
    const { client, secret } = await createClient(
      deps,
      org,
      { name: 'Steady service', kind: 'confidential', redirectUris: [] },
      SYSTEM,
    );
    const consoleOrg = await findConsoleOrg(deps.store);
    if (!consoleOrg) throw new Error('no console org');
    const { client: consoleClient } = await createClient(
      deps,
      consoleOrg,
      { name: 'Bench console', kind: 'public', redirectUris: ['http://127.0.0.1:9/cb'] },
      SYSTEM,
    );
    const consoleTokens: string[] = [];
    for (let i = 0; i < bursts; i++) {
      const { user } = await createUser(
        deps,
        consoleOrg,
        { email: `burst-${i}@console.test`, password: 'bench password 1' },
        SYSTEM,
      );
      const now = Date.now();
      const session = await deps.unitOfWork.run((trx) =>
        openSession(
          trx,
          consoleOrg,
          { userId: user.id, clientId: consoleClient.id, ...PASSWORD_SIGN_IN, scope: 'openid org:write' },
          now,
        ),
      );
      const signer = await deps.keyRing.signer(consoleOrg.id);
      consoleTokens.push((await signSessionToken(deps, signer, consoleOrg, session, now)).accessToken);
    }
    return { machine: { clientId: client.id, clientSecret: secret as string }, consoleTokens };
  } finally {
    await runtime.close();
  }
}
