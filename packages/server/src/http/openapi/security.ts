import type { Config } from '../../config/config.js';
import {
  DEFAULT_CONSOLE_SCOPE,
  FIRST_PARTY_ONLY_SCOPE,
  MANAGEMENT_SCOPES,
  SCOPES,
  SERVICE_ACCOUNT_SCOPES,
} from '../../domain/directory/index.js';
import { REALM } from '../bearer.js';
import { ApiError } from '../management/api-schemas.js';
import type { Json } from './components.js';
import type { Operation, ResponseSpec } from './operation.js';

/** The security requirement of an operation: which tokens it takes, and a console token's scope. */
export function securityOf(op: Operation): Json[] {
  const consoleOAuth = { consoleOAuth: op.scope ? [op.scope] : [] };
  switch (op.auth) {
    case 'console':
      return op.people ? [consoleOAuth] : [consoleOAuth, { serviceAccount: consoleOAuth.consoleOAuth }];
    case 'user':
      return [{ userToken: [] }];
    case 'user-or-console':
      return [{ userToken: [] }, consoleOAuth];
    case 'scim':
      return [{ scimToken: [] }];
    case 'none':
      return [];
  }
}

/**
 * The operation's responses, with the 403 every console operation answers a token that was not
 * granted its scope (beside the 403 of its own, if it has one).
 */
export function responsesOf(op: Operation): Record<string, ResponseSpec> {
  if (op.auth !== 'console' || op.scope === undefined) return op.responses;
  const scopeRefusal = `\`insufficient_scope\`: the token was not granted \`${op.scope}\``;
  // A service account's token is refused before its scope is looked at (http/management/owner-caller.ts).
  const refusal = op.people ? `\`forbidden\`: a service account's token; or ${scopeRefusal}` : scopeRefusal;
  const own = op.responses[403];
  return {
    ...op.responses,
    403: {
      description: own ? `${own.description}; or ${refusal}` : refusal,
      schema: ApiError,
      headers: {
        ...own?.headers,
        'www-authenticate': `on \`insufficient_scope\`: \`Bearer realm="${REALM}", error="insufficient_scope", scope="${op.scope}"\``,
      },
    },
  };
}

/** `components.securitySchemes`: console tokens through the console issuer's OAuth flow, user tokens. */
export function securitySchemes(config: Config): Json {
  return {
    consoleOAuth: {
      type: 'oauth2',
      description:
        'A console access token (`typ` console) from the console issuer: the authorization code ' +
        `flow with PKCE (S256, required). A request without \`scope\` gets \`${DEFAULT_CONSOLE_SCOPE}\`; ` +
        `\`${FIRST_PARTY_ONLY_SCOPE}\` is granted to first-party clients only: a registered ` +
        '(RFC 7591) or metadata-document client that asks for it is not refused, the scope is left ' +
        "out of its grant and the token response's `scope` names what was granted. Refresh may only " +
        'narrow the scope (a wider one is `invalid_scope`). An operation whose ' +
        'scope the token lacks answers 403 `insufficient_scope` naming it. Sent as ' +
        '`Authorization: Bearer <token>`; a DPoP-bound token (RFC 9449, `cnf.jkt`) only as ' +
        '`Authorization: DPoP <token>` with a `DPoP` proof of its key for the request.',
      flows: {
        authorizationCode: {
          authorizationUrl: `${config.baseUrl}/oauth/authorize`,
          tokenUrl: `${config.baseUrl}/oauth/token`,
          refreshUrl: `${config.baseUrl}/oauth/token`,
          // The words the consent page shows for each scope.
          scopes: SCOPES,
        },
      },
    },
    serviceAccount: {
      type: 'oauth2',
      description:
        'A service account’s token (`typ` client, DESIGN §16): the client_credentials grant at the ' +
        'console issuer’s token endpoint with the account’s `client_id` and its secret (or a ' +
        '`private_key_jwt` assertion). It carries the scopes an owner chose (`scope` may narrow ' +
        'them) and is accepted for the one org the account is bound to: another org answers 404, ' +
        'an operation beyond its scopes 403 `insufficient_scope`. The operations whose security lists ' +
        'only `consoleOAuth` are for people (who the org’s people are: members, invitations; service ' +
        'accounts; impersonation): 403 `forbidden`, whatever the scopes.',
      flows: {
        clientCredentials: {
          tokenUrl: `${config.baseUrl}/oauth/token`,
          scopes: Object.fromEntries(SERVICE_ACCOUNT_SCOPES.map((s) => [s, MANAGEMENT_SCOPES[s]])),
        },
      },
    },
    scimToken: {
      type: 'http',
      scheme: 'bearer',
      description:
        'a SCIM directory’s token (`tsc_…`), shown once when an owner creates the directory or rotates its token; valid only for that directory, on its org’s host',
    },
    userToken: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description:
        'a user access token (`typ` user) from the org’s issuer; a DPoP-bound one (RFC 9449) only as ' +
        '`Authorization: DPoP <token>` with a `DPoP` proof of its key for the request',
    },
  };
}
