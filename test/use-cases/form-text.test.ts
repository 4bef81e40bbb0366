// src/use-cases/form-text.ts: application/x-www-form-urlencoded read as the URL Standard reads it
// (§5.1), except that bytes that are not UTF-8, raw or percent-encoded, are refused (issue 19 §6).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcRun } from '../helpers/seed.ts';
import { parseForm } from '../../src/use-cases/form-text.ts';
import { AppError } from '../../src/errors.ts';

const pairs = (form: URLSearchParams) => [...form];

test('parseForm reads well-formed forms exactly as URLSearchParams does', () => {
  const piece = fc.constantFrom('a', 'Z', '=', '&', '+', ' ', 'á', '€', '😀', '%41', '%2B', '%26', '%3D', '%C3%A1', '%F0%9F%98%80', '%e2%82%ac');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
      const text = pieces.join('');
      assert.deepEqual(pairs(parseForm(Buffer.from(text))), pairs(new URLSearchParams(text)), text);
    }),
    fcRun(201, { numRuns: 2000 }),
  );
});

test('parseForm keeps a % that starts no escape, skips empty pairs and keeps a BOM, as the URL Standard does', () => {
  assert.deepEqual(pairs(parseForm(Buffer.from('a=100%&b=%zz&c=%4'))), [['a', '100%'], ['b', '%zz'], ['c', '%4']]);
  assert.deepEqual(pairs(parseForm(Buffer.from('&&a&=b&'))), [['a', ''], ['', 'b']]);
  assert.deepEqual(pairs(parseForm(Buffer.from('\ufeffa=1'))), [['\ufeffa', '1']]);
  assert.deepEqual(pairs(parseForm(Buffer.alloc(0))), []);
});

test('parseForm refuses bytes that are not UTF-8, percent-encoded or raw, in a name or a value, with a 400 invalid_input', () => {
  const refused = (body: Buffer) =>
    assert.throws(
      () => parseForm(body),
      (error: unknown) => error instanceof AppError && error.code === 'invalid_input' && error.status === 400 && /UTF-8/.test(error.message),
      body.toString('latin1'),
    );
  // A lead byte without its continuation, a lone continuation byte, an overlong "/", a UTF-16 surrogate, beyond U+10FFFF.
  for (const escaped of ['%C3%28', '%80', '%C0%AF', '%ED%A0%80', '%F4%90%80%80', '%C3']) {
    refused(Buffer.from(`nombre=${escaped}`));
    refused(Buffer.from(`${escaped}=x`));
  }
  refused(Buffer.concat([Buffer.from('nombre=Ana+'), Buffer.from([0xc3, 0x28])]));
  refused(Buffer.from([0xff, 0x3d, 0x31]));
});
