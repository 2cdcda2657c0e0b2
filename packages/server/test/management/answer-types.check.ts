// Compile-time checks, read by the typecheck (not run): a handler's answer is typed from its
// declaration's documented success responses. Each @ts-expect-error fails the typecheck if the
// line below it ever stops being an error.
import { z } from 'zod';
import { created, endpoint, noContent, ok } from '../../src/http/management/endpoint.js';

const Thing = z.object({ id: z.string(), name: z.string() });
const declaration = {
  tag: 'management',
  hosts: 'console',
  auth: 'console',
  scope: 'org:write',
  who: 'owners',
  method: 'post',
  path: '/organizations/:org/things',
  operationId: 'createThing',
  summary: 'x',
  responses: { 201: { description: 'created', schema: Thing }, 404: { description: 'x' } },
} as const;

export const answers = [
  endpoint(declaration, async () => created({ id: 't_1', name: 'x' })),
  // @ts-expect-error a body missing a documented field
  endpoint(declaration, async () => created({ id: 't_1' })),
  // @ts-expect-error a field of the wrong type
  endpoint(declaration, async () => created({ id: 1, name: 'x' })),
  // @ts-expect-error a success status the declaration does not document
  endpoint(declaration, async () => ok({ id: 't_1', name: 'x' })),
  // @ts-expect-error a body where the declaration documents none (204)
  endpoint({ ...declaration, responses: { 204: { description: 'gone' } } }, async () => ({
    status: 204,
    body: { id: 't_1' },
  })),
  endpoint({ ...declaration, responses: { 204: { description: 'gone' } } }, async () => noContent()),
  // @ts-expect-error a promise of the body, not the body
  endpoint(declaration, async () => created(Promise.resolve({ id: 't_1', name: 'x' }))),
];
