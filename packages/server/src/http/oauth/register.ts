import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { registerClient, registrationOpen } from '../../domain/directory/index.js';
import { fail } from '../../domain/errors.js';
import { rateLimitKey } from '../client-ip.js';
import { noStore } from '../no-store.js';
import { orgOf } from '../org-routing.js';
import { registrationMetadata } from './registration-request.js';

/**
 * POST /oauth/register (RFC 7591): on the console issuer, and on an org's issuer while its
 * `dynamic_registration` setting is on (DESIGN §15); every other host answers 404. Every answer,
 * errors included (those refused at the edge too), is no-store.
 */
export function registrationEndpoint(app: FastifyInstance, deps: Deps) {
  app.post('/oauth/register', { onSend: noStore }, async (request, reply) => {
    const org = await orgOf(deps, request);
    if (!registrationOpen(org)) return fail('not_found', 'this issuer does not offer registration');
    const metadata = registrationMetadata(parseJson(request.body));
    const registered = await registerClient(deps, org, metadata, rateLimitKey(request));
    return reply.code(201).send(registered);
  });
}

/** JSON arrives parsed; any other content type arrives as text and is read as JSON if it is. */
function parseJson(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return fail('invalid_client_metadata', 'the body must be a JSON object');
  }
}
