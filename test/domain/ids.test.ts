// Ids (SPEC 3): UUIDv7, time-ordered, from pooled random bytes (issue 26).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, validate, version } from 'uuid';
import { newId, UUID_PATTERN } from '../../src/ids.ts';

test('ids are valid UUIDv7 with the RFC 9562 variant, carrying the time they were made', () => {
  const before = Date.now();
  const id = newId();
  const after = Date.now();
  assert.ok(validate(id) && UUID_PATTERN.test(id), id);
  assert.equal(version(id), 7);
  const bytes = parse(id);
  assert.equal(bytes[8]! >> 6, 0b10, 'variant');
  const ms = Number(BigInt(`0x${id.replace(/-/g, '').slice(0, 12)}`));
  assert.ok(ms >= before && ms <= after + 1, `${ms} in [${before}, ${after}]`);
});

test('ids made one after another sort in the order made and never repeat, across many refills of the random pool', () => {
  const ids = Array.from({ length: 20_000 }, newId);
  assert.equal(new Set(ids).size, ids.length);
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1]! < ids[i]!, `${ids[i - 1]} < ${ids[i]}`);
});

test('the random part differs from id to id (no pool slice reused)', () => {
  const tails = new Set(Array.from({ length: 5_000 }, () => newId().slice(-12)));
  assert.equal(tails.size, 5_000);
});
