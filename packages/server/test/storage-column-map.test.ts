import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  columnMap,
  flag,
  json,
  jsonOrNull,
  listOrNull,
  textOf,
  wordsOrNull,
} from '../src/storage/repos/column-map.js';

/** A table's columns and the fields they hold are declared once (storage/repos/column-map.ts). */
interface ThingsTable {
  id: string;
  org_id: string;
  tags: string;
  active: number;
  note: string | null;
  created_at: number;
}

interface Thing {
  id: string;
  orgId: string;
  tags: string[];
  active: boolean;
  note: string | null;
  createdAt: number;
}

const things = columnMap<ThingsTable, Thing>()({
  id: 'id',
  org_id: 'orgId',
  tags: ['tags', json<string[]>()],
  active: ['active', flag],
  note: 'note',
  created_at: 'createdAt',
});

const row: ThingsTable = {
  id: 't1',
  org_id: 'o1',
  tags: '["a","b"]',
  active: 1,
  note: null,
  created_at: 5,
};
const record: Thing = { id: 't1', orgId: 'o1', tags: ['a', 'b'], active: true, note: null, createdAt: 5 };

describe('column map', () => {
  test('a row becomes the record and the record the same row', () => {
    assert.deepEqual(things.toRecord(row), record);
    assert.deepEqual(things.toRow(record), row);
    assert.deepEqual(things.toRow(things.toRecord(row)), row);
  });

  test('the record has its fields in the declared order, the row its columns (a select names them so)', () => {
    assert.deepEqual(Object.keys(things.toRecord(row)), [
      'id',
      'orgId',
      'tags',
      'active',
      'note',
      'createdAt',
    ]);
    assert.deepEqual(things.names, ['id', 'org_id', 'tags', 'active', 'note', 'created_at']);
    assert.deepEqual(Object.keys(things.toRow(record)), things.names);
  });

  test('the conversions read what they write', () => {
    assert.equal(flag.write(false), 0);
    assert.equal(flag.read(0), false);
    const grant = jsonOrNull<{ a: number }>();
    assert.equal(grant.write(null), null);
    assert.equal(grant.read(null), null);
    assert.deepEqual(grant.read(grant.write({ a: 1 })), { a: 1 });
    const list = listOrNull<string>();
    assert.equal(list.write([]), null);
    assert.deepEqual(list.read(null), []);
    assert.deepEqual(list.read(list.write(['x'])), ['x']);
    const words = wordsOrNull<'login' | 'consent'>();
    assert.equal(words.write([]), null);
    assert.equal(words.write(['login', 'consent']), 'login consent');
    assert.deepEqual(words.read('login consent'), ['login', 'consent']);
    assert.deepEqual(words.read(null), []);
    assert.equal(textOf<'a' | 'b'>().read('a'), 'a');
  });

  test('a declaration that does not match the row and the record fails to compile', () => {
    const declare = columnMap<ThingsTable, Thing>();
    const rest = {
      id: 'id',
      tags: ['tags', json<string[]>()],
      active: ['active', flag],
      note: 'note',
    } as const;
    // @ts-expect-error a column of the row is missing (org_id)
    declare({ ...rest, created_at: 'createdAt' });
    // @ts-expect-error a misspelled column
    declare({ ...rest, org_id: 'orgId', created_at: 'createdAt', updated_at: 'createdAt' });
    // @ts-expect-error a field of another type (a number column into a string field)
    declare({ ...rest, org_id: 'orgId', created_at: 'id' });
    // @ts-expect-error a field no column fills (extra)
    columnMap<ThingsTable, Thing & { extra: string }>()({
      ...rest,
      org_id: 'orgId',
      created_at: 'createdAt',
    });
    // @ts-expect-error a conversion to another type than the field's
    declare({ ...rest, org_id: 'orgId', created_at: 'createdAt', active: ['active', json<string>()] });
    assert.ok(true);
  });
});
