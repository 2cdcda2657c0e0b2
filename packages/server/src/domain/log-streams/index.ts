/**
 * The public face of domain/log-streams/: what the HTTP layer, the worker and the commands may use of
 * it. Everything else in the folder is the feature's own (the lint refuses a deeper import from
 * outside the domain).
 */
export {
  createLogStream,
  deleteLogStream,
  getLogStream,
  LAG_CAP,
  type LogStream,
  type LogStreamChanges,
  type LogStreamSettings,
  type LogStreamType,
  type LogStreamView,
  listLogStreams,
  logStreamSnapshot,
  MAX_STREAMS,
  type NewLogStream,
  type StreamStatus,
  updateLogStream,
} from './log-streams.js';
export {
  DEFAULT_DATADOG_URL,
  MAX_BATCH_BYTES,
  MAX_BATCH_ENTRIES,
  type StreamRequest,
  streamRequest,
} from './payloads.js';
export { streamRetryDelay } from './retry.js';
export { type SerializedEntry, serializeEntry } from './stream-entry.js';
