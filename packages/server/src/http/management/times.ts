/** An instant as the API writes it: ISO 8601, in UTC. */
export const isoTime = (ms: number) => new Date(ms).toISOString();

/** An instant that may not have happened (yet): ISO 8601, or null. */
export const isoTimeOrNull = (ms: number | null) => (ms === null ? null : isoTime(ms));

/** When a record was made and last changed, as every answer names them (`created_at`, `updated_at`). */
export const timestamps = (record: { createdAt: number; updatedAt: number }) => ({
  created_at: isoTime(record.createdAt),
  updated_at: isoTime(record.updatedAt),
});
