// What the burst needs, written straight into the store before the server starts (the bench's own
// runtime, closed again): the org `steady` with an OIDC connection to a provider that answers, and the
// org `burst` with `connections` OIDC connections to a provider that hangs.

import { loadConfig } from '../../packages/server/src/config/config.js';
import { createOrg } from '../../packages/server/src/domain/directory/orgs.js';
import { createConnection } from '../../packages/server/src/domain/federation/index.js';
import { SYSTEM } from '../../packages/server/src/domain/types.js';
import { openRuntime } from '../../packages/server/src/runtime.js';

export interface Cast {
  steady: string;
  burst: string[];
}

export async function setUp(
  env: NodeJS.ProcessEnv,
  issuers: { answering: string; hanging: string },
  connections: number,
): Promise<Cast> {
  const runtime = await openRuntime(loadConfig(env), () => {});
  try {
    const { deps } = runtime;
    const oidc = (name: string, issuer: string) =>
      ({ type: 'oidc', name, issuer, clientId: 'tessera', clientSecret: 'bench upstream secret' }) as const;
    const { org: steady } = await createOrg(deps, {
      slug: 'steady',
      ownerEmail: 'owner@steady.test',
      ownerPassword: 'bench password 1',
    });
    const steadyConnection = await createConnection(
      deps,
      steady,
      oidc('Steady IdP', issuers.answering),
      SYSTEM,
    );
    const { org: burst } = await createOrg(deps, {
      slug: 'burst',
      ownerEmail: 'owner@burst.test',
      ownerPassword: 'bench password 1',
    });
    const hung: string[] = [];
    for (let i = 0; i < connections; i++)
      hung.push((await createConnection(deps, burst, oidc(`Hung IdP ${i}`, issuers.hanging), SYSTEM)).id);
    return { steady: steadyConnection.id, burst: hung };
  } finally {
    await runtime.close();
  }
}
