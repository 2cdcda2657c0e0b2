import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { authenticateBearer, type BearerCaller } from '../bearer.js';
import type { EndpointShape } from './endpoint.js';
import {
  type ConsoleCaller,
  consoleCaller,
  memberCaller,
  type OrgCaller,
  ownerCaller,
  personOwnerCaller,
} from './owner-caller.js';

/**
 * The one guard of every declared operation: for the signed-in person's endpoints, a user token
 * (or a console token too) through the one bearer step (http/bearer.ts); for management ones, the
 * caller from the declaration's `who`, `scope` and `people` (http/management/owner-caller.ts says
 * what each refusal is).
 */
export function guard(
  deps: Deps,
  request: FastifyRequest,
  op: EndpointShape,
): Promise<BearerCaller | ConsoleCaller | OrgCaller> {
  if (op.auth !== 'console') {
    return authenticateBearer(deps, request, op.auth === 'user' ? ['user'] : ['user', 'console']);
  }
  const orgRequest = request as FastifyRequest<{ Params: { org: string } }>;
  switch (op.who) {
    case 'console user':
      return consoleCaller(deps, request, op.scope);
    case 'members':
      return memberCaller(deps, orgRequest, op.scope);
    case 'owners':
    case 'owners, members 404': {
      const members = op.who === 'owners' ? 'forbidden' : 'not_found';
      return op.people
        ? personOwnerCaller(deps, orgRequest, members, op.scope)
        : ownerCaller(deps, orgRequest, members, op.scope);
    }
  }
}

/**
 * A declaration the guard cannot honour fails at start-up: the document would promise what the
 * route does not do.
 */
export function checkGuard(op: EndpointShape): void {
  if (op.auth !== 'console') return;
  const where = `${op.method.toUpperCase()} ${op.path}`;
  if (op.who === 'console user' && op.people !== true) {
    throw new TypeError(
      `${where}: a console user's operation refuses service accounts; declare people: true`,
    );
  }
  if (op.who === 'members' && op.people === true) {
    throw new TypeError(`${where}: the members' guard lets service accounts in; people: true is not kept`);
  }
  if (op.who !== 'console user' && !op.path.startsWith('/organizations/:org')) {
    throw new TypeError(`${where}: an org's guard needs {org} in the path`);
  }
}
