/**
 * The public face of domain/webhooks/: what the HTTP layer, the worker and the commands may use of
 * it. Everything else in the folder is the feature's own (the lint refuses a deeper import from
 * outside the domain).
 */
export { listDeliveries, retryDelivery } from './delivery-log.js';
export { refuseLoopbackUrl } from './loopback-url.js';
export { LOGOUT_CHANNEL, OUTBOX_CHANNEL, onEnqueued } from './outbox-signal.js';
export {
  DEFAULT_RETRY_SCHEDULE,
  DEFAULT_WEBHOOK_TIMEOUT,
  nextRetryDelay,
  parseDelay,
  parseRetrySchedule,
} from './retry-schedule.js';
export { ENTITY_SHAPE, ROUTING_PATTERN, VERBS } from './routing-keys.js';
export { sendTestEvent } from './test-event.js';
