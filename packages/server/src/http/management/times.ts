import { isoTime } from '../../domain/iso-time.js';

/** When a record was made and last changed, as every answer names them (`created_at`, `updated_at`). */
export const timestamps = (record: { createdAt: number; updatedAt: number }) => ({
  created_at: isoTime(record.createdAt),
  updated_at: isoTime(record.updatedAt),
});
