import type { z } from 'zod';
import type { ManagementScope } from '../../domain/directory/index.js';

/** Who may call an operation: which bearer tokens it takes, or none. */
/** `scim`: a SCIM directory's bearer token (DESIGN §19). */
export type Auth = 'console' | 'user' | 'user-or-console' | 'scim' | 'none';

export interface ResponseSpec {
  description: string;
  /** JSON body (default content type), or `contentType` for anything else. */
  schema?: z.ZodType;
  contentType?: string;
  /** Other content types the answer may come as instead of the JSON body (a signed JWT), undescribed. */
  alsoAs?: readonly string[];
  /** Response headers worth knowing: name → description. */
  headers?: Record<string, string>;
}

/** One documented HTTP operation; `path` is written as fastify registers it (`/tenants/:id`). */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** `console`: the console host only; `every`: every org host, the console's included. */
  hosts: 'console' | 'every';
  auth: Auth;
  /** The console-token scope the operation needs (every `console` operation names one). */
  scope?: ManagementScope;
  /**
   * A `console` operation for console users only: a service account's token (DESIGN §16) is
   * refused with 403 `forbidden`. Without it, service accounts bound to the org may call it too.
   */
  people?: true;
  /** Path parameters: name → description. */
  params?: Record<string, string>;
  /** An object schema: each property becomes a query parameter. */
  query?: z.ZodType;
  body?: { contentType: 'application/json' | 'application/x-www-form-urlencoded'; schema: z.ZodType };
  /** The largest body the route takes, when more than the app's 64 KB (brand images). */
  bodyLimit?: number;
  responses: Record<string, ResponseSpec>;
}
