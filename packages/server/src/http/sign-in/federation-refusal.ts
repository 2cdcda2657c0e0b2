import type { FastifyReply, FastifyRequest } from 'fastify';
import { FederationRefused } from '../../domain/federation/index.js';
import { loadPendingSignIn } from '../../domain/sign-in/index.js';
import type { Org } from '../../domain/types.js';
import { nameSituation } from '../error-code-header.js';
import type { PageContext } from './context.js';
import { renderLogin } from './login.js';
import { situationText, textsOf } from './page-texts.js';

/** A federated refusal, on the login page with its reason (and the authorization request, if any). */
export async function showRefusal(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  requestId: string | null,
  error: unknown,
) {
  if (!(error instanceof FederationRefused)) throw error;
  nameSituation(reply, error.situation);
  const pending = requestId === null ? null : await loadPendingSignIn(ctx.deps, org, requestId);
  return renderLogin(
    ctx,
    org,
    request,
    reply,
    pending,
    { email: '', error: situationText(textsOf(request), error.situation, error.message) },
    { status: error.status },
  );
}
