import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRetryAfter } from '../../src/delivery/https-sender.js';
import {
  DEFAULT_RETRY_SCHEDULE,
  MAX_RETRY_AFTER_MS,
  nextRetryDelay,
  parseRetrySchedule,
} from '../../src/domain/webhooks/retry-schedule.js';

const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
const [low, middle, high] = [() => 0, () => 0.5, () => 0.999_999];

test('seven retries, each after its delay of the schedule, then none: eight attempts in all', () => {
  const delays = Array.from({ length: 8 }, (_, i) => nextRetryDelay(schedule, i + 1, null, middle));
  assert.deepEqual(delays, [...schedule, null]);
});

test('jitter spreads each delay by at most ±10 %', () => {
  assert.equal(nextRetryDelay(schedule, 1, null, low), 4500);
  assert.equal(nextRetryDelay(schedule, 1, null, high), 5500);
  assert.equal(nextRetryDelay(schedule, 7, null, low), 0.9 * 36_000_000);
});

test('Retry-After pushes a retry later, never earlier, and at most a day ahead', () => {
  assert.equal(nextRetryDelay(schedule, 1, 60_000, middle), 60_000);
  assert.equal(nextRetryDelay(schedule, 1, 1000, middle), 5000, 'earlier than the schedule: ignored');
  assert.equal(nextRetryDelay(schedule, 1, 7 * 86_400_000, middle), MAX_RETRY_AFTER_MS);
  assert.equal(nextRetryDelay(schedule, 8, 60_000, middle), null, 'nor does it add a retry');
});

test('Retry-After as delay-seconds or an HTTP date; anything else is ignored', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('120', now), 120_000);
  assert.equal(parseRetryAfter(['30', '60'], now), 30_000);
  assert.equal(parseRetryAfter('Tue, 01 Jan 2030 00:02:00 GMT', now), 120_000);
  assert.equal(parseRetryAfter('Mon, 31 Dec 2029 23:00:00 GMT', now), 0, 'a date past is now');
  assert.equal(parseRetryAfter(undefined, now), null);
  assert.equal(parseRetryAfter('soon', now), null);
});
