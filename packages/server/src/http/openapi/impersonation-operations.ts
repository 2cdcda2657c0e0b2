import { ApiError } from '../management/api-schemas.js';
import { Impersonation, StartImpersonationBody } from '../management/impersonation-schemas.js';
import type { Operation, ResponseSpec } from './operation.js';

const error = (description: string): ResponseSpec => ({ description, schema: ApiError });

/** Impersonation (docs/delegation.md), from the schemas its route validates with. */
export const IMPERSONATION_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: '/organizations/:org/users/:id/impersonation',
    operationId: 'startImpersonation',
    summary: 'Act as a user of the org: a one-time sign-in link for one client',
    description:
      'Owners only. The `url` opens once, within two minutes, on the org’s issuer: it signs the ' +
      'browser in as the user and redirects to `redirect_uri` with a code (and `state`, `iss`), ' +
      'which the client exchanges at /oauth/token as usual (with its PKCE verifier). Tokens carry ' +
      '`act: {sub: <owner usr_ id>}`; the session ends one hour after the link is opened and no ' +
      'refresh extends it. Audited as `impersonation.created`, then `user.login` and ' +
      '`session.created`, each with the owner as actor.',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'users:impersonate',
    params: { org: 'the org id (`org_…`) or slug', id: 'the user id (`usr_…`)' },
    body: { contentType: 'application/json', schema: StartImpersonationBody },
    responses: {
      201: { description: 'the link, shown in this response only', schema: Impersonation },
      400: error(
        '`invalid_request`: an unknown field, a value failing validation, a client or redirect URI ' +
          'not of this org, or no `code_challenge` for a public client',
      ),
      401: error('no valid console token (`WWW-Authenticate: Bearer`)'),
      403: error('`forbidden`: the caller is a member but not an owner of the org'),
      404: error('`not_found`: no such org, or the token cannot manage it; or no such user in it'),
      409: error('`conflict`: the user is disabled'),
    },
  },
];
