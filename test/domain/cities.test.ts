// src/domain/cities/fold.ts and src/domain/cities/matcher.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fold, foldCompact } from '../../src/domain/cities/fold.ts';
import { CityMatcher, type CatalogEntry } from '../../src/domain/cities/matcher.ts';

const CATALOG: CatalogEntry[] = [
  { region: 'Bogotá, D.C.', city: 'Bogotá, D.C.', code: '11001' },
  { region: 'Antioquia', city: 'Medellín', code: '05001' },
  { region: 'Antioquia', city: 'La Unión', code: '05400' },
  { region: 'Nariño', city: 'La Unión', code: '52399' },
  { region: 'Nariño', city: 'Pasto', code: null },
];

test('fold strips accents, lower-cases and turns punctuation into single spaces', () => {
  assert.equal(fold('Bogotá, D.C.'), 'bogota d c');
  assert.equal(fold('  MEDELLÍN  '), 'medellin');
  assert.equal(fold('San José de Cúcuta'), 'san jose de cucuta');
  assert.equal(fold('Nariño'), 'narino');
});

test('foldCompact makes "Bogotá, D.C.", "BOGOTA D.C." and "bogota dc" the same key', () => {
  assert.equal(foldCompact('Bogotá, D.C.'), 'bogotadc');
  assert.equal(foldCompact('BOGOTA D.C.'), 'bogotadc');
  assert.equal(foldCompact('bogota dc'), 'bogotadc');
  assert.equal(foldCompact('Santa Fe'), foldCompact('Santafé'));
});

test('CityMatcher matches folded region and city exactly and returns the catalog spelling and code', () => {
  const matcher = new CityMatcher(CATALOG);
  assert.deepEqual(matcher.match('BOGOTA D.C.', 'BOGOTA D.C.'), {
    confident: true,
    method: 'exact',
    score: 1,
    region: 'Bogotá, D.C.',
    city: 'Bogotá, D.C.',
    code: '11001',
  });
  assert.deepEqual(matcher.match('antioquia', 'MEDELLIN'), { confident: true, method: 'exact', score: 1, region: 'Antioquia', city: 'Medellín', code: '05001' });
});

test('CityMatcher keeps a null code for an exact match on a catalog entry without code', () => {
  assert.deepEqual(new CityMatcher(CATALOG).match('narino', 'pasto'), { confident: true, method: 'exact', score: 1, region: 'Nariño', city: 'Pasto', code: null });
});

test('CityMatcher resolves a city that exists in one region only even when the region is wrong', () => {
  const decision = new CityMatcher(CATALOG).match('Cundinamarca', 'medellin');
  assert.equal(decision.confident, true);
  assert.equal(decision.method, 'unique_city');
  assert.equal(decision.region, 'Antioquia');
  assert.equal(decision.city, 'Medellín');
  assert.equal(decision.code, '05001');
  assert.ok(decision.score < 1);
});

test('CityMatcher picks the right region for a city name shared by two regions when the region is given', () => {
  const decision = new CityMatcher(CATALOG).match('Nariño', 'la union');
  assert.equal(decision.confident, true);
  assert.equal(decision.code, '52399');
});

test('CityMatcher is not confident about a city name in two regions when the region does not decide, and lists both', () => {
  const decision = new CityMatcher(CATALOG).match('Valle del Cauca', 'La Union');
  assert.equal(decision.confident, false);
  assert.equal(decision.method, 'none');
  assert.equal(decision.region, undefined);
  assert.equal(decision.city, undefined);
  assert.deepEqual(
    decision.candidates?.map((c) => `${c.region}/${c.city}`).sort(),
    ['Antioquia/La Unión', 'Nariño/La Unión'],
  );
});

test('CityMatcher is not confident and has no candidates for an unknown city', () => {
  const decision = new CityMatcher(CATALOG).match('Antioquia', 'Gotham');
  assert.equal(decision.confident, false);
  assert.equal(decision.score, 0);
  assert.equal(decision.candidates, undefined);
});

test('CityMatcher size counts distinct folded city names', () => {
  assert.equal(new CityMatcher(CATALOG).size, 4);
  assert.equal(new CityMatcher([]).size, 0);
});
