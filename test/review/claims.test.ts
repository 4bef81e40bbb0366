// Issue 13 §5 "README claims nothing checks": each claim is made true and checked here, or removed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadConfig } from '../../src/config.ts';

const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
const majors = (range: string) => range.split('||').map((r) => Number(/^\s*(\d+)\.x\s*$/.exec(r)?.[1]));

test('engines promises only Node majors better-sqlite3 supports, and the one running the tests', () => {
  const ours = majors(pkg.engines.node);
  assert.ok(ours.every((m) => Number.isInteger(m)), `engines is a list of N.x majors: ${pkg.engines.node}`);
  const theirs = majors((require('better-sqlite3/package.json') as { engines: { node: string } }).engines.node);
  assert.deepEqual(ours.filter((m) => !theirs.includes(m)), []);
  assert.ok(ours.includes(Number(process.versions.node.split('.')[0])));
});

/** The README configuration table: setting → its environment variable and documented default. */
function readmeDefaults(): Map<string, string> {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## CLI'));
  const rows = new Map<string, string>();
  for (const line of table.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const env = /`([A-Z_]+)`/.exec(cells[3] ?? '')?.[1];
    if (env) rows.set(env, cells[4] ?? '');
  }
  return rows;
}

test('every default of the README configuration table is the default loadConfig gives', () => {
  const config = loadConfig({}, {});
  const rows = readmeDefaults();
  const expected: Record<string, [unknown, string]> = {
    CODRAIL_DB: [config.dbFile, '`./codrail.sqlite`'],
    PORT: [config.port, '`3000`'],
    HOST: [config.host, '`127.0.0.1`'],
    CODRAIL_FULFILLMENT_CONCURRENCY: [config.fulfillmentConcurrency, '`4`'],
    CODRAIL_FULFILLMENT_TIMEOUT_MS: [config.fulfillmentTimeoutMs, '`10000`'],
    CODRAIL_FULFILLMENT_BACKOFF_MS: [config.fulfillmentBackoffMs, '`1000`'],
    CODRAIL_FULFILLMENT_BACKOFF_MAX_MS: [config.fulfillmentBackoffMaxMs, '`600000` (10 min)'],
    CODRAIL_FULFILLMENT_GIVE_UP_AFTER: [config.fulfillmentGiveUpAfterMs / 3_600_000, '`72h`'],
    LOG_LEVEL: [config.logLevel, '`info`'],
    CODRAIL_RATE_IP_PER_MIN: [config.rateIpPerMin, '`10`'],
    CODRAIL_RATE_KEY_PER_MIN: [config.rateKeyPerMin, '`120`'],
    CODRAIL_RATE_PHONE_PER_HOUR: [config.ratePhonePerHour, '`5`'],
    CODRAIL_RATE_REGISTER_PER_HOUR: [config.rateRegisterPerHour, '`20`'],
    CODRAIL_SHUTDOWN_GRACE_MS: [config.shutdownGraceMs, '`10000`'],
  };
  for (const [env, [value, documented]] of Object.entries(expected)) {
    assert.equal(rows.get(env), documented, `README default of ${env}`);
    assert.equal(String(value), documented.replace(/`/g, '').replace(/h$/, '').replace(/ \(.*\)$/, '').replace(/^\.\//, './'), `loadConfig default of ${env}`);
  }
});

test('flags win over the environment, the environment over defaults, for every setting that has both', () => {
  const env = {
    CODRAIL_DB: '/env.sqlite',
    PORT: '4001',
    HOST: '0.0.0.0',
    CODRAIL_FULFILLMENT_URL: 'http://env.example',
    CODRAIL_FULFILLMENT_CONCURRENCY: '5',
    CODRAIL_FULFILLMENT_TIMEOUT_MS: '5000',
    CODRAIL_FULFILLMENT_BACKOFF_MS: '50',
    CODRAIL_FULFILLMENT_BACKOFF_MAX_MS: '500',
    CODRAIL_FULFILLMENT_GIVE_UP_AFTER: '2h',
    LOG_LEVEL: 'warn',
    CODRAIL_RATE_IP_PER_MIN: '11',
    CODRAIL_RATE_KEY_PER_MIN: '12',
    CODRAIL_RATE_PHONE_PER_HOUR: '13',
    CODRAIL_RATE_REGISTER_PER_HOUR: '14',
    CODRAIL_WHATSAPP_URL: 'http://wa-env.example',
  };
  const fromEnv = loadConfig({}, env);
  assert.deepEqual(
    [fromEnv.dbFile, fromEnv.port, fromEnv.host, fromEnv.fulfillmentUrl, fromEnv.fulfillmentConcurrency, fromEnv.fulfillmentTimeoutMs, fromEnv.fulfillmentBackoffMs, fromEnv.fulfillmentBackoffMaxMs, fromEnv.fulfillmentGiveUpAfterMs, fromEnv.logLevel, fromEnv.rateIpPerMin, fromEnv.rateKeyPerMin, fromEnv.ratePhonePerHour, fromEnv.rateRegisterPerHour, fromEnv.whatsappUrl],
    ['/env.sqlite', 4001, '0.0.0.0', 'http://env.example', 5, 5000, 50, 500, 7_200_000, 'warn', 11, 12, 13, 14, 'http://wa-env.example'],
  );
  const fromFlags = loadConfig(
    { db: '/flag.sqlite', port: 4002, host: '127.0.0.2', fulfillmentUrl: 'http://flag.example', fulfillmentConcurrency: 6, fulfillmentTimeoutMs: 6000, fulfillmentBackoffMs: 60, fulfillmentBackoffMaxMs: 600, fulfillmentGiveUpAfter: '30m', logLevel: 'error', rateIpPerMin: 21, rateKeyPerMin: 22, ratePhonePerHour: 23, rateRegisterPerHour: 24, whatsappUrl: 'http://wa-flag.example' },
    env,
  );
  assert.deepEqual(
    [fromFlags.dbFile, fromFlags.port, fromFlags.host, fromFlags.fulfillmentUrl, fromFlags.fulfillmentConcurrency, fromFlags.fulfillmentTimeoutMs, fromFlags.fulfillmentBackoffMs, fromFlags.fulfillmentBackoffMaxMs, fromFlags.fulfillmentGiveUpAfterMs, fromFlags.logLevel, fromFlags.rateIpPerMin, fromFlags.rateKeyPerMin, fromFlags.ratePhonePerHour, fromFlags.rateRegisterPerHour, fromFlags.whatsappUrl],
    ['/flag.sqlite', 4002, '127.0.0.2', 'http://flag.example', 6, 6000, 60, 600, 1_800_000, 'error', 21, 22, 23, 24, 'http://wa-flag.example'],
  );
});

test('a spawned CLI does not inherit the caller’s codrail settings (a developer’s LOG_LEVEL or CODRAIL_DB)', async () => {
  const { runCli } = await import('../helpers/cli.ts');
  const { tempDbFile } = await import('../helpers/server.ts');
  const tmp = tempDbFile();
  const saved = { LOG_LEVEL: process.env.LOG_LEVEL, CODRAIL_WHOLE_CURRENCIES: process.env.CODRAIL_WHOLE_CURRENCIES };
  process.env.LOG_LEVEL = 'loud';
  process.env.CODRAIL_WHOLE_CURRENCIES = 'NOT-A-CURRENCY';
  try {
    const result = await runCli(['--json', 'accounts', 'list'], { db: tmp.file });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.json, []);
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
    else process.env[k] = v;
    tmp.cleanup();
  }
});
