// SPEC 14 "CLI start ≤ 300 ms": `codrail --help` must not load SQLite, kysely, pino or the
// use-cases. The command modules reach them only through import() inside their actions; this test
// keeps it that way (speed itself is measured, not asserted: see the README).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

const CLI = new URL('../../src/cli/', import.meta.url);
const HEAVY = /^import (?!type )[^;]*from '(\.\.\/(?:use-cases\/|app\.ts|log\.ts|http\/|api\/|oauth\/|mcp\/|db\/|fulfillment\/)[^']*|pino|kysely|better-sqlite3)';/gm;

test('no CLI module imports the use-cases, the database, the HTTP shell or pino at load time', () => {
  const offenders = readdirSync(CLI)
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => [...readFileSync(new URL(f, CLI), 'utf8').matchAll(HEAVY)].map((m) => `${f}: ${m[1]}`));
  assert.deepEqual(offenders, []);
});

test('the startup guard recognises a static import of a use-case and ignores type-only and dynamic ones', () => {
  const sample = ["import { x } from '../use-cases/a.use-case.ts';", "import type { App } from '../app.ts';", "const m = () => import('../app.ts');", "import pino from 'pino';"].join('\n');
  assert.deepEqual([...sample.matchAll(HEAVY)].map((m) => m[1]), ['../use-cases/a.use-case.ts', 'pino']);
});
