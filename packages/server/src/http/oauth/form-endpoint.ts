import type { z } from 'zod';
import { noStore } from '../no-store.js';
import { FORM, noOrgAtHost } from '../openapi/oauth-responses.js';
import type { Operation } from '../openapi/operation.js';
import { operation, type ServedOperation, type ServedRoute, type Serving } from '../served-operation.js';

/**
 * An OAuth endpoint a client posts a form to (the token, revocation, introspection, pushed
 * authorization and device authorization endpoints): the form's parameters documented, the client's
 * authentication inside the request (none of the API's), 404 on a host that is no org's; no answer
 * is stored.
 */
export function clientFormOperation(
  declaration: Omit<Operation, 'method' | 'tag' | 'hosts' | 'auth' | 'body'> & { form: z.ZodType },
  route: (serving: Serving) => Omit<ServedRoute, 'onSend'>,
): ServedOperation {
  const { form, responses, ...rest } = declaration;
  return operation(
    {
      ...rest,
      method: 'post',
      tag: 'oauth',
      hosts: 'every',
      auth: 'none',
      body: { contentType: FORM, schema: form },
      responses: { ...responses, 404: noOrgAtHost },
    },
    (serving) => ({ onSend: [noStore], ...route(serving) }),
  );
}
