import { registerClient, registrationOpen } from '../../domain/directory/index.js';
import { fail } from '../../domain/errors.js';
import { rateLimitKey } from '../client-ip.js';
import { noStore } from '../no-store.js';
import { OAuthError, RegisteredClient } from '../openapi/described-schemas.js';
import { oauthError } from '../openapi/oauth-responses.js';
import { orgOf } from '../org-routing.js';
import { operation } from '../served-operation.js';
import { RegistrationRequest, registrationMetadata } from './registration-request.js';

/**
 * POST /oauth/register (RFC 7591): on the console issuer, and on an org's issuer while its
 * `dynamic_registration` setting is on (DESIGN §15); every other host answers 404. Every answer,
 * errors included (those refused at the edge too), is no-store.
 */
export const registration = operation(
  {
    method: 'post',
    path: '/oauth/register',
    operationId: 'registerClient',
    summary: 'Dynamic client registration (RFC 7591) of a public client',
    description:
      'On the console issuer always; on an org issuer only while the org’s `dynamic_registration` setting is on ' +
      '(the client then belongs to that org and signs its users in). Consent is always asked.',
    tag: 'oauth',
    hosts: 'every',
    auth: 'none',
    body: { contentType: 'application/json', schema: RegistrationRequest },
    responses: {
      201: { description: 'the registered client; never a secret', schema: RegisteredClient },
      400: oauthError('`invalid_redirect_uri` or `invalid_client_metadata`'),
      404: { description: 'on an org host whose `dynamic_registration` setting is off' },
      429: {
        description: '`rate_limited`: more than 10 registrations in the hour from this IP',
        schema: OAuthError,
        headers: { 'retry-after': 'seconds until a registration is accepted again' },
      },
    },
  },
  ({ deps }) => ({
    onSend: [noStore],
    handler: async (request, reply) => {
      const org = await orgOf(deps, request);
      if (!registrationOpen(org))
        return fail('registration.closed', 'this issuer does not offer registration');
      const metadata = registrationMetadata(parseJson(request.body));
      const registered = await registerClient(deps, org, metadata, rateLimitKey(request));
      return reply.code(201).send(registered);
    },
  }),
);

/** JSON arrives parsed; any other content type arrives as text and is read as JSON if it is. */
function parseJson(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return fail('registration.body.not_json', 'the body must be a JSON object');
  }
}
