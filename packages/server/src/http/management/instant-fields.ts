import { z } from 'zod';

// Fields the answers' schemas share. Not named components of the document (schema-names.ts names
// the exports of the *-schemas.ts modules only), so each use stays inline in it.

/** An instant in an answer: an ISO 8601 date-time. */
export const IsoDateTime = z.string().meta({ format: 'date-time' });
/** When a record was made (its `created_at`): an ISO date-time with milliseconds, in UTC. */
export const CreatedAt = z
  .string()
  .meta({ format: 'date-time', description: 'ISO date-time with milliseconds, UTC' });
