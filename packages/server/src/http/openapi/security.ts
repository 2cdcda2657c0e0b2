import type { Config } from '../../config/config.js';
import { DEFAULT_CONSOLE_SCOPE, FIRST_PARTY_ONLY_SCOPE } from '../../domain/tokens/console-scopes.js';
import { SCOPES } from '../../domain/tokens/scopes.js';
import { REALM } from '../bearer.js';
import { ApiError } from '../management/api-schemas.js';
import type { Json } from './components.js';
import type { Operation, ResponseSpec } from './operation.js';

/** The security requirement of an operation: which tokens it takes, and a console token's scope. */
export function securityOf(op: Operation): Json[] {
  const consoleOAuth = { consoleOAuth: op.scope ? [op.scope] : [] };
  switch (op.auth) {
    case 'console':
      return [consoleOAuth];
    case 'user':
      return [{ userToken: [] }];
    case 'user-or-console':
      return [{ userToken: [] }, consoleOAuth];
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
  const refusal = `\`insufficient_scope\`: the token was not granted \`${op.scope}\``;
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
        '`Authorization: Bearer <token>`.',
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
    userToken: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'a user access token (`typ` user) from the org’s issuer',
    },
  };
}
