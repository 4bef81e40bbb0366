import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseUrlIsExplicit, loadConfig, withListenPort } from '../src/config.ts';

test('baseUrlIsExplicit is true for a --base-url flag or a non-empty CODRAIL_BASE_URL and false otherwise', () => {
  assert.equal(baseUrlIsExplicit({ baseUrl: 'https://pay.example.test' }, {}), true);
  assert.equal(baseUrlIsExplicit({}, { CODRAIL_BASE_URL: 'https://pay.example.test' }), true);
  assert.equal(baseUrlIsExplicit({}, {}), false);
  // An empty variable counts as unset, as loadConfig reads it.
  assert.equal(baseUrlIsExplicit({}, { CODRAIL_BASE_URL: '' }), false);
});

test('withListenPort keeps an explicit base URL and derives one from the real port otherwise', () => {
  const derived = loadConfig({ port: 0 }, {});
  assert.equal(withListenPort(derived, 4321, baseUrlIsExplicit({}, {})).baseUrl, 'http://127.0.0.1:4321');
  const env = { CODRAIL_BASE_URL: 'https://pay.example.test/' };
  const explicit = loadConfig({ port: 0 }, env);
  assert.equal(withListenPort(explicit, 4321, baseUrlIsExplicit({}, env)).baseUrl, 'https://pay.example.test');
});

test('whole currencies come from the flag over CODRAIL_WHOLE_CURRENCIES, upper-cased, none by default, and an unknown code is refused', () => {
  assert.deepEqual([...loadConfig({}, {}).wholeCurrencies], []);
  assert.deepEqual([...loadConfig({}, { CODRAIL_WHOLE_CURRENCIES: 'cop, clp' }).wholeCurrencies], ['COP', 'CLP']);
  assert.deepEqual([...loadConfig({ wholeCurrencies: 'MXN' }, { CODRAIL_WHOLE_CURRENCIES: 'COP' }).wholeCurrencies], ['MXN']);
  assert.throws(() => loadConfig({}, { CODRAIL_WHOLE_CURRENCIES: 'COP,XYZ' }), /XYZ is not an ISO 4217/);
});

test('the shutdown grace period comes from --shutdown-grace-ms over CODRAIL_SHUTDOWN_GRACE_MS, 10000 ms by default, and a value that is not 0..600000 ms is refused', () => {
  assert.equal(loadConfig({}, {}).shutdownGraceMs, 10_000);
  assert.equal(loadConfig({}, { CODRAIL_SHUTDOWN_GRACE_MS: '2500' }).shutdownGraceMs, 2_500);
  assert.equal(loadConfig({ shutdownGraceMs: '0' }, { CODRAIL_SHUTDOWN_GRACE_MS: '2500' }).shutdownGraceMs, 0);
  for (const bad of ['soon', '-1', '1.5', '600001']) assert.throws(() => loadConfig({ shutdownGraceMs: bad }, {}), /shutdown-grace-ms must be an integer from 0 to 600000/);
});

test('the header timeout comes from --headers-timeout-ms over CODRAIL_HEADERS_TIMEOUT_MS, 10000 ms by default, and a value that is not 100..30000 ms (the request timeout) is refused', () => {
  assert.equal(loadConfig({}, {}).headersTimeoutMs, 10_000);
  assert.equal(loadConfig({}, { CODRAIL_HEADERS_TIMEOUT_MS: '2500' }).headersTimeoutMs, 2_500);
  assert.equal(loadConfig({ headersTimeoutMs: '300' }, { CODRAIL_HEADERS_TIMEOUT_MS: '2500' }).headersTimeoutMs, 300);
  for (const bad of ['soon', '99', '1.5', '30001']) assert.throws(() => loadConfig({ headersTimeoutMs: bad }, {}), /headers-timeout-ms must be an integer from 100 to 30000/);
});

test('the sealing key comes from CODRAIL_SECRET_KEY or from the file CODRAIL_SECRET_KEY_FILE names (systemd credentials), never both, and a bad one is refused', async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'codrail-key-'));
  try {
    const key = Buffer.alloc(32, 9).toString('base64');
    const file = join(dir, 'secret-key');
    writeFileSync(file, `${key}\n`, { mode: 0o600 });
    assert.equal(loadConfig({}, { CODRAIL_SECRET_KEY_FILE: file }).secretKey, key);
    assert.equal(loadConfig({}, { CODRAIL_SECRET_KEY: key }).secretKey, key);
    assert.equal(loadConfig({}, {}).secretKey, undefined);
    assert.throws(() => loadConfig({}, { CODRAIL_SECRET_KEY: key, CODRAIL_SECRET_KEY_FILE: file }), /both set/);
    assert.throws(() => loadConfig({}, { CODRAIL_SECRET_KEY_FILE: join(dir, 'missing') }), /CODRAIL_SECRET_KEY_FILE cannot be read \(ENOENT\)/);
    writeFileSync(file, 'short');
    assert.throws(() => loadConfig({}, { CODRAIL_SECRET_KEY_FILE: file }), /CODRAIL_SECRET_KEY_FILE must be 32 bytes/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
