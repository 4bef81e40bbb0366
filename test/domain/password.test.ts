import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashPassword, verifyPassword } from '../../src/domain/password.ts';

test('hashPassword returns a self-describing scrypt hash that does not contain the password', () => {
  const hash = hashPassword('correct horse battery');
  assert.match(hash, /^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
  assert.ok(!hash.includes('correct horse battery'));
});

test('hashPassword salts: the same password hashes differently twice', () => {
  assert.notEqual(hashPassword('correct horse battery'), hashPassword('correct horse battery'));
});

test('verifyPassword accepts the right password', () => {
  assert.equal(verifyPassword('correct horse battery', hashPassword('correct horse battery')), true);
});

test('verifyPassword refuses a wrong password, a different case and an empty password', () => {
  const hash = hashPassword('correct horse battery');
  assert.equal(verifyPassword('correct horse batter', hash), false);
  assert.equal(verifyPassword('Correct horse battery', hash), false);
  assert.equal(verifyPassword('', hash), false);
});

test('verifyPassword refuses a stored value that is not a scrypt hash', () => {
  assert.equal(verifyPassword('secret', 'secret'), false);
  assert.equal(verifyPassword('secret', ''), false);
  assert.equal(verifyPassword('secret', 'bcrypt$1$2$3$4$5'), false);
});
