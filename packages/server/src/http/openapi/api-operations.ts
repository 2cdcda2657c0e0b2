import { Health, OpenApiDocument, Readiness } from './described-schemas.js';
import type { Operation } from './operation.js';

/**
 * Health, readiness, metrics and this document: documented here, registered by hand
 * (http/operations/, http/openapi/route.ts). The signed-in person's APIs are declared with their
 * handlers in http/account/.
 */
export const API_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    summary: 'Liveness: the process serves (the database is not consulted)',
    tag: 'service',
    hosts: 'every',
    auth: 'none',
    responses: { 200: { description: 'the process serves', schema: Health } },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readiness',
    summary: 'Readiness: the database answers and holds every migration',
    tag: 'service',
    hosts: 'every',
    auth: 'none',
    responses: {
      200: { description: 'ready', schema: Readiness },
      503: { description: 'the database does not answer, or is not migrated', schema: Readiness },
    },
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    summary:
      'Prometheus metrics: request durations by route and status, tokens issued by grant, webhook deliveries by outcome, outbox depth, database pool use',
    tag: 'service',
    hosts: 'every',
    auth: 'none',
    responses: {
      200: { description: 'Prometheus text exposition format', contentType: 'text/plain; version=0.0.4' },
    },
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openapi',
    summary: 'This document',
    tag: 'service',
    hosts: 'every',
    auth: 'none',
    responses: { 200: { description: 'OpenAPI 3.1', schema: OpenApiDocument } },
  },
];
