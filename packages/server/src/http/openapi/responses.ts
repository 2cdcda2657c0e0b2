import { ApiError } from '../management/api-schemas.js';
import { OAuthError } from './described-schemas.js';
import type { Operation, ResponseSpec } from './operation.js';
import { responsesOf } from './security.js';

const RETRY_AFTER = { 'retry-after': 'seconds to wait before trying again' } as const;

/**
 * A lost database, as every operation that reads or writes it answers (DESIGN §11; http/errors.ts):
 * a hosted page's error page, `temporarily_unavailable` in RFC 6749's body on the other OAuth
 * endpoints, `unavailable` elsewhere.
 */
function unavailable(op: Operation, responses: Record<string, ResponseSpec>): ResponseSpec {
  const words = 'the database cannot be reached; try again after `Retry-After`';
  // A hosted page's route (its refusals are pages) shows its error page.
  if (Object.values(responses).some((r) => r.contentType === 'text/html'))
    return { description: `the error page: ${words}`, contentType: 'text/html', headers: RETRY_AFTER };
  if (op.path.startsWith('/oauth/'))
    return { description: `\`temporarily_unavailable\`: ${words}`, schema: OAuthError, headers: RETRY_AFTER };
  return { description: `\`unavailable\`: ${words}`, schema: ApiError, headers: RETRY_AFTER };
}

/**
 * Everything an operation may answer, as the document declares it and the answers are checked
 * against: its own responses, the scope refusal of console operations (security.ts), and the 503 of a
 * lost database — except on the service's own endpoints (`service`: health, readiness, the document,
 * metrics), which either touch no database or declare their own 503.
 */
export function declaredResponses(op: Operation): Record<string, ResponseSpec> {
  const responses = responsesOf(op);
  if (op.tag === 'service' || responses[503] !== undefined) return responses;
  return { ...responses, 503: unavailable(op, responses) };
}
