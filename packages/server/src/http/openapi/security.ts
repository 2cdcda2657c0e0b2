import type { Config } from '../../config/config.js';
import type { ManagementScope } from '../../domain/tokens/console-scopes.js';
import { SCOPES } from '../../domain/tokens/scopes.js';
import type { Json } from './components.js';
import type { Operation } from './operation.js';

/** What each management scope lets a console client do, in the words a person reads. */
const MANAGEMENT_SCOPES: Record<ManagementScope, string> = {
  'org:read':
    'See your orgs: their settings, members, clients (never their secrets), users, tenants, public ' +
    'signing keys, webhooks and webhook deliveries',
  'events:read': 'See your orgs’ audit logs',
  'org:write':
    'Change your orgs: create, update and delete all of the above, rotate signing keys and client ' +
    'secrets, retry webhook deliveries',
  'users:impersonate': 'Act as a user of your orgs (first-party console clients only)',
};

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

/** `components.securitySchemes`: console tokens through the console issuer's OAuth flow, user tokens. */
export function securitySchemes(config: Config): Json {
  return {
    consoleOAuth: {
      type: 'oauth2',
      description:
        'A console access token (`typ` console) from the console issuer: the authorization code ' +
        'flow with PKCE (S256, required). A request without `scope` gets `openid profile email ' +
        'org:read events:read`; an operation whose scope the token lacks answers 403 ' +
        '`insufficient_scope`. Sent as `Authorization: Bearer <token>`.',
      flows: {
        authorizationCode: {
          authorizationUrl: `${config.baseUrl}/oauth/authorize`,
          tokenUrl: `${config.baseUrl}/oauth/token`,
          refreshUrl: `${config.baseUrl}/oauth/token`,
          scopes: { ...SCOPES, ...MANAGEMENT_SCOPES },
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
