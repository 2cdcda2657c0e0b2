import assert from 'node:assert/strict';
import { test } from 'node:test';
import { auditEntryJson, toAuditEntry } from '../../src/domain/audit/events.js';
import { epochSecondsText, isoTime } from '../../src/domain/iso-time.js';
import type { Actor, AuditRecord } from '../../src/domain/types.js';

// A stream sends each entry as the stored JSON put together (auditEntryJson); the events list serializes
// toAuditEntry's object. The two must be the same text, character for character.

const actors: Actor[] = [
  { kind: 'system' },
  { kind: 'user', id: 'usr_1a2b' },
  { kind: 'client', id: 'cli_x"y\\z' },
];
const datas: Record<string, unknown>[] = [
  {},
  { id: 'tnt_1', name: 'Tenant "one" \\ two', createdAt: '2026-11-29T15:37:54.307Z' },
  { name: 'Zoë 日本 \u0001\u001f\n\t\u2028 😀', n: 1.5e21, neg: -0, deep: { list: [1, null, true, 'x'] } },
];
const times = [0, 9, 99, 999, 1000, 1795966554037, 1795966554000, 1767225599999, 1767225600000, 951782400123];

test('a stream entry is the events list entry serialized, character for character', () => {
  let checked = 0;
  for (const verb of ['created', 'updated', 'deleted', 'login']) {
    for (const actor of actors) {
      for (const data of datas) {
        for (const at of times) {
          for (const withChanges of [false, true]) {
            const record: AuditRecord = {
              id: `evt_${checked.toString(16).padStart(30, '0')}`,
              orgId: 'org_1',
              key: `tenant.${verb}`,
              entity: 'tenant',
              verb,
              at,
              actor,
              data,
              previous: withChanges ? { name: 'before "x"' } : null,
              changes: withChanges ? { name: 'after' } : null,
            };
            const stored = {
              ...record,
              dataJson: JSON.stringify(record.data),
              previousJson: record.previous === null ? null : JSON.stringify(record.previous),
              changesJson: record.changes === null ? null : JSON.stringify(record.changes),
            };
            assert.equal(auditEntryJson(stored), JSON.stringify(toAuditEntry(record)));
            checked++;
          }
        }
      }
    }
  }
  assert.equal(checked, 4 * 3 * 3 * times.length * 2);
});

test('isoTime is toISOString for whole milliseconds, across seconds, days and years', () => {
  const samples = [...times, -1, -1000, -62135596800000, 253402300799999, 1767225599999.5];
  let x = 1795966554037;
  for (let i = 0; i < 5000; i++) {
    // Neighbours (the cache's same second) and jumps (a new second each time).
    x += i % 7 === 0 ? Math.floor(Math.random() * 1e10) : Math.floor(Math.random() * 400);
    samples.push(x);
  }
  for (const ms of samples) assert.equal(isoTime(ms), new Date(ms).toISOString(), String(ms));
  assert.throws(() => isoTime(8.64e15 + 1000), RangeError);
});

test("epochSecondsText is String(ms / 1000) (Splunk's time), across seconds and for any number", () => {
  const samples = [
    ...times,
    1000,
    1010,
    1100,
    1001,
    1e15 - 1,
    1e15,
    2 ** 53 - 1,
    -1,
    -1500,
    1.5,
    Number.NaN,
    2 ** 53 + 2,
  ];
  let x = 1795966554037;
  for (let i = 0; i < 5000; i++) {
    x += i % 7 === 0 ? Math.floor(Math.random() * 1e10) : Math.floor(Math.random() * 400);
    samples.push(x, Math.floor(Math.random() * 2 ** 53));
  }
  for (const ms of samples) assert.equal(epochSecondsText(ms), String(ms / 1000), String(ms));
});
