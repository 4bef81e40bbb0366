// The terminal escaping rule (issue 19 §3): what a terminal would obey is printed as its escape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { terminalText, terminalValue } from '../../src/domain/terminal-text.ts';

test('terminalValue escapes C0 controls, DEL and C1 controls as \\xHH and names tab, CR and LF', () => {
  assert.equal(terminalValue('a\u001b[2Kb\u0007c\u0000d\u007fe\u009bf'), 'a\\x1b[2Kb\\x07c\\x00d\\x7fe\\x9bf');
  assert.equal(terminalValue('uno\tdos\r\ntres'), 'uno\\tdos\\r\\ntres');
});

test('terminalValue escapes bidi, invisible format characters and the Unicode line separators as \\uHHHH', () => {
  assert.equal(terminalValue('\u202Eabc\u202C \u2066x\u2069 \u200E\u200F\u061C \u200B\u2060\uFEFF \u2028\u2029'), '\\u202eabc\\u202c \\u2066x\\u2069 \\u200e\\u200f\\u061c \\u200b\\u2060\\ufeff \\u2028\\u2029');
});

test('terminalValue leaves printable text alone: accents, emoji, CJK, a joined emoji sequence', () => {
  const text = 'Bogotá ✓ 東京 👩‍👩‍👧 "quoted" \\ back';
  assert.equal(terminalValue(text), text);
});

test('terminalText keeps line feeds and escapes everything else terminalValue does', () => {
  assert.equal(terminalText('one\ntwo\r\u001b[1Athree\u202E'), 'one\ntwo\\r\\x1b[1Athree\\u202e');
});
