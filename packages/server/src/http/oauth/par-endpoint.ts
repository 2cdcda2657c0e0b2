import { fail } from '../../domain/errors.js';
import { originOf } from '../../domain/issuers.js';
import { pushAuthorizationRequest } from '../../domain/sign-in/index.js';
import { tokenRequestKey } from '../../domain/tokens/index.js';
import { authorizeQuery } from '../authorize-query.js';
import { formClient } from '../cors.js';
import { clientForm } from '../form.js';
import { PushedAuthorizationRequest, PushedAuthorizationResponse } from '../openapi/described-schemas.js';
import { oauthError } from '../openapi/oauth-responses.js';
import { authenticatedClient, CLIENT_AUTH_PARAMETERS } from './client-authentication.js';
import { clientFormOperation } from './form-endpoint.js';

/**
 * POST /oauth/par (RFC 9126): named steps, in order — the form, the client's one authentication
 * method (each the token endpoint's: Basic, post, private_key_jwt, or `none` for a public client;
 * a failure is 401 invalid_client), then the authorization request the rest of the form is,
 * checked as /oauth/authorize checks one (domain/sign-in/authorize/) and kept for 60 seconds.
 * `201 {request_uri, expires_in}`; any refusal is the token endpoint's JSON error, never a redirect.
 */
export const pushedAuthorizationRequest = clientFormOperation(
  {
    path: '/oauth/par',
    operationId: 'pushedAuthorizationRequest',
    summary: 'Pushed authorization request (RFC 9126): the request kept, answered with its request_uri',
    description:
      'The body holds the parameters of an authorization request (as /oauth/authorize takes them, ' +
      '`request` included, `request_uri` refused) and the client’s authentication, by any method the ' +
      'token endpoint accepts (a public client sends only `client_id`). The request is checked as ' +
      '/oauth/authorize would check it. A `DPoP` proof header (RFC 9449 §10.1) binds the code to its ' +
      'key as `dpop_jkt` does (both given: they must name the same key). The `request_uri` of the answer opens it once, within ' +
      '`expires_in` seconds, at /oauth/authorize with the same `client_id`.',
    form: PushedAuthorizationRequest,
    responses: {
      201: { description: 'kept: its request_uri', schema: PushedAuthorizationResponse },
      400: oauthError('the request as /oauth/authorize would refuse it, or a malformed form'),
      401: oauthError('`invalid_client`: no or failed client authentication'),
      413: oauthError('`invalid_request`: a body over 64 KiB'),
    },
  },
  ({ deps }) => ({
    cors: formClient,
    handler: async (request, reply) => {
      const form = clientForm(request);
      const auth: Partial<Record<(typeof CLIENT_AUTH_PARAMETERS)[number], string>> = {};
      for (const name of CLIENT_AUTH_PARAMETERS) {
        const values = form.get(name) ?? [];
        if (values.length > 1) fail('oauth.parameter.repeated', `parameter given more than once: ${name}`);
        if (values[0]) auth[name] = values[0];
      }
      const { org, client } = await authenticatedClient(deps, request, auth, '/oauth/par');
      // RFC 9449 §10.1: a DPoP proof here binds the code to its key (checked as at the token endpoint).
      const proof = request.headers.dpop;
      const proofJkt =
        typeof proof === 'string'
          ? await tokenRequestKey(deps, org, client, proof, `${originOf(deps.config, org)}/oauth/par`)
          : null;
      const pushed = await pushAuthorizationRequest(deps, org, client, authorizeQuery(form), proofJkt);
      return reply.code(201).send({ request_uri: pushed.requestUri, expires_in: pushed.expiresIn });
    },
  }),
);
