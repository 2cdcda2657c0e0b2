import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../../domain/context.js';
import { startImpersonation } from '../../domain/sign-in/impersonation.js';
import { jsonBody } from './api-input.js';
import type { Impersonation } from './impersonation-schemas.js';
import { StartImpersonationBody } from './impersonation-schemas.js';
import { ownerCaller } from './owner-caller.js';

type Params = { Params: { org: string; id: string } };

/**
 * An owner starts acting as a user of their org (members 403, strangers 404, as for webhooks):
 * the answer is a one-time link on the org's issuer, shown in this response only.
 */
export function impersonationRoutes(app: FastifyInstance, deps: Deps) {
  app.post<Params>('/organizations/:org/users/:id/impersonation', async (request, reply) => {
    const { org, consoleUserId } = await ownerCaller(deps, request, 'forbidden', 'users:impersonate');
    const body = jsonBody('invalid_request', StartImpersonationBody, request.body);
    const started = await startImpersonation(deps, org, consoleUserId, request.params.id, {
      reason: body.reason,
      clientId: body.client_id,
      redirectUri: body.redirect_uri,
      state: body.state,
      codeChallenge: body.code_challenge,
      codeChallengeMethod: body.code_challenge_method,
    });
    const view: z.output<typeof Impersonation> = {
      id: started.id,
      user_id: started.userId,
      client_id: started.clientId,
      url: started.url,
      expires_at: new Date(started.expiresAt).toISOString(),
    };
    return reply.code(201).header('cache-control', 'no-store').send(view);
  });
}
