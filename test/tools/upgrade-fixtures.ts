// Builds fixtures/upgrade/<level>.sql: for each shipped migration level, a database made by the
// migrations as they were released up to that level, holding real rows — orders in every push state
// (queued, held, crashed mid-push before and after the platform created the order, failed with a
// lost answer and with a known failure, dead, done, a pushed order waiting for its cancel), a store
// with its own sealed platform credentials, OAuth clients, families and refresh tokens, WhatsApp
// settings and messages — written out as SQL text. test/db/upgrade.test.ts loads each one, upgrades
// it to today with `codrail migrate`, and runs `codrail serve` against the simulator.
//
// Migrations are frozen, so a fixture once written stays what that release made: run this again
// only to add the level a new release ships (it rewrites every file; review the diff).
//   node --import tsx test/tools/upgrade-fixtures.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrations } from '../../src/db/migrations/index.ts';
import { SecretBox } from '../../src/domain/secret-box.ts';
import { hashKey } from '../../src/domain/keys.ts';
import { hashPassword } from '../../src/domain/password.ts';
import { UPGRADE_FIXTURE, ordersAt, type FixtureOrder } from '../helpers/upgrade-fixture.ts';

const OUT = fileURLToPath(new URL('../../fixtures/upgrade/', import.meta.url));
/** Levels released so far; each landing that ships a migration adds its level here. */
const LEVELS = ['0001-initial', '0002-fulfillment', '0003-oauth', '0004-account', '0005-push-policy', '0006-whatsapp-settings', '0007-order-life', '0008-push-give-up', '0009-client-metadata-documents'];

type Row = Record<string, string | number | null>;

const F = UPGRADE_FIXTURE;
const AT = F.at;

function orderRow(o: FixtureOrder, n: number): Row {
  return {
    id: o.id,
    store_id: o.store,
    product_id: o.store === F.storeId ? F.productId : F.ownProductId,
    landing_page_id: null,
    api_key_id: o.sandbox ? F.testKeyId : F.liveKeyId,
    order_number: 1001 + n,
    status: o.status,
    sandbox: o.sandbox ? 1 : 0,
    needs_review: o.job === 'held' ? 1 : 0,
    nombre: `Cliente ${n} Gómez`,
    telefono: `300123${String(4000 + n)}`,
    telefono_e164: `+57300123${String(4000 + n)}`,
    departamento: 'Antioquia',
    ciudad: 'Medellín',
    departamento_input: 'antioquia',
    ciudad_input: o.job === 'held' ? 'Medelin centro' : 'medellin',
    city_code: o.job === 'held' ? null : '05001',
    city_match: o.job === 'held' ? 'none' : 'exact',
    direccion: `Calle ${10 + n} # 43-12`,
    barrio: null,
    referencia: null,
    distrito: null,
    colonia: null,
    codigo_postal: null,
    pack: '1x',
    pack_units: 1,
    quantity: 1,
    unit_price_minor: 8_990_000,
    total_price_minor: 8_990_000,
    currency: 'COP',
    client_ip: '198.51.100.7',
    fulfillment_status: o.remote ? 'PENDIENTE' : null,
    created_at: AT,
    updated_at: AT,
    tracking_number: null,
    cancel_reason: o.status === 'cancelled' ? 'buyer_declined' : null,
  };
}

function jobRows(o: FixtureOrder): Row[] {
  if (!o.job) return [];
  const push: Row = {
    id: `job-push-${o.id}`,
    order_id: o.id,
    action: 'push',
    state: o.job,
    attempts: o.attempts ?? 0,
    next_attempt_at: AT,
    // An attempt that crashed left its lease behind, long expired.
    lease_until: o.job === 'in_flight' ? '2026-01-01T00:05:00.000Z' : null,
    last_error: o.job === 'failed' || o.job === 'dead' ? (o.lostAnswer ? 'POST /orders: no answer within 10000 ms' : 'POST /orders: HTTP 503 platform down') : null,
    remote_id: o.job === 'done' ? o.remote! : null,
    created_at: AT,
    updated_at: AT,
    first_attempt_at: (o.attempts ?? 0) > 0 ? AT : null,
    unknown_outcome: o.lostAnswer ? 1 : 0,
  };
  if (!o.cancel) return [push];
  return [push, { ...push, id: `job-cancel-${o.id}`, action: 'cancel', state: 'queued', attempts: 0, lease_until: null, last_error: null, remote_id: o.remote!, first_attempt_at: null, unknown_outcome: 0 }];
}

function rows(box: SecretBox): Record<string, Row[]> {
  const orders = F.orders;
  return {
    accounts: [{ id: F.accountId, name: 'Tienda de prueba SAS', created_at: AT }],
    users: [{ id: F.userId, account_id: F.accountId, email: F.userEmail, password_hash: hashPassword(F.userPassword), role: 'owner', created_at: AT, disabled_at: null }],
    stores: [F.storeId, F.ownStoreId].map((id, i) => ({
      id,
      account_id: F.accountId,
      name: i === 0 ? 'Tienda' : 'Tienda con su propia cuenta',
      country: 'CO',
      currency: 'COP',
      max_discount_pct: 30,
      allowed_domains: '["shop.example.com"]',
      next_order_number: 1100,
      created_at: AT,
      archived_at: null,
      timezone: 'America/Bogota',
      updated_at: AT,
      push_policy: 'on_create',
    })),
    products: [
      [F.productId, F.storeId],
      [F.ownProductId, F.ownStoreId],
    ].map(([id, store]) => ({ id: id!, store_id: store!, name: 'Faja colombiana', sku: 'FAJA-01', status: 'active', fulfillment_product_ref: null, created_at: AT, updated_at: AT, images: '[]', min_unit_price_minor: 0 })),
    product_packs: [
      [`pack-${F.productId}`, F.productId],
      [`pack-${F.ownProductId}`, F.ownProductId],
    ].map(([id, product]) => ({ id: id!, product_id: product!, code: '1x', units: 1, price_minor: 8_990_000, min_price_minor: null, position: 0, is_default: 1 })),
    api_keys: [
      { id: F.liveKeyId, type: 'publishable', env: 'live', key: F.liveKey },
      { id: F.testKeyId, type: 'publishable', env: 'test', key: F.testKey },
      { id: F.secretKeyId, type: 'secret', env: 'live', key: F.secretKey },
    ].map((k) => ({
      id: k.id,
      account_id: F.accountId,
      store_id: F.storeId,
      type: k.type,
      env: k.env,
      hash: hashKey(k.key),
      prefix: k.key.slice(0, k.key.lastIndexOf('_') + 5),
      label: null,
      allowed_domains: '[]',
      allowed_products: '[]',
      created_at: AT,
      last_used_at: null,
      revoked_at: null,
      replaced_by: null,
      last4: k.key.slice(-4),
      inherit_domains: k.type === 'publishable' ? 1 : 0,
    })),
    orders: orders.map(orderRow),
    order_events: orders.map((o, n) => ({ id: `event-${o.id}`, order_id: o.id, store_id: o.store, type: 'order.created', actor: `key:${F.liveKeyId}`, data: JSON.stringify({ order_number: 1001 + n }), created_at: AT })),
    fulfillment_jobs: orders.flatMap(jobRows),
    oauth_clients: [{ id: F.clientId, client_name: 'Claude', redirect_uris: '["http://127.0.0.1:6274/oauth/callback"]', grant_types: '["authorization_code","refresh_token"]', client_uri: null, software_id: null, software_version: null, registered_via: 'dcr', registered_ip: '198.51.100.9', created_at: AT, revoked_at: null }],
    oauth_families: [{ id: F.familyId, client_id: F.clientId, user_id: F.userId, account_id: F.accountId, scope: 'mcp:invoke orders:read stores:read', resource: F.resource, created_at: AT, expires_at: '2099-01-01T00:00:00.000Z', last_used_at: AT, revoked_at: null, revoked_reason: null }],
    oauth_refresh_tokens: [{ hash: hashKey(F.refreshToken), family_id: F.familyId, created_at: AT, expires_at: '2099-01-01T00:00:00.000Z', rotated_at: null }],
    fulfillment_connections: [
      {
        store_id: F.ownStoreId,
        token_sealed: box.seal(F.ownPlatformToken, `fulfillment_connections.token_sealed:${F.ownStoreId}`),
        token_last4: F.ownPlatformToken.slice(-4),
        platform_account_id: 'acct_own',
        platform_account_name: 'Cuenta propia',
        verified_at: AT,
        last_ok_at: AT,
        last_error: null,
        last_error_at: null,
        created_at: AT,
        updated_at: AT,
      },
    ],
    whatsapp_settings: [{ store_id: F.storeId, enabled: 1, sender_number: '+573001112233', phone_number_id: F.phoneNumberId, events: '{"order_created":true}', templates: '{}', updated_at: AT }],
    whatsapp_messages: [
      {
        id: F.messageId,
        store_id: F.storeId,
        order_id: F.orders[0]!.id,
        to_e164: '+573001234000',
        type: 'text',
        template: null,
        body: 'Hola Cliente, recibimos tu pedido',
        parameters: '[]',
        event: null,
        idempotency_key: 'fixture-message-1',
        request_hash: 'fixture',
        status: 'queued',
        attempts: 0,
        next_attempt_at: AT,
        lease_until: null,
        last_error: null,
        wa_message_id: null,
        actor: 'cli',
        created_at: AT,
        updated_at: AT,
        sent_at: null,
        delivered_at: null,
        read_at: null,
      },
    ],
  };
}

const quote = (v: string | number | null) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`);

/** The database as SQL text: schema objects in creation order, then every row (sqlite3's .dump, without a shell). */
function dump(raw: BetterSqlite3.Database): string {
  const objects = raw.prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid").all() as { type: string; name: string; sql: string }[];
  const out = ['PRAGMA foreign_keys=OFF;', 'BEGIN TRANSACTION;'];
  for (const o of objects.filter((x) => x.type === 'table')) {
    out.push(`${o.sql};`);
    const cols = (raw.prepare(`PRAGMA table_info("${o.name}")`).all() as { name: string }[]).map((c) => c.name);
    for (const row of raw.prepare(`SELECT * FROM "${o.name}" ORDER BY 1`).all() as Row[]) out.push(`INSERT INTO "${o.name}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map((c) => quote(row[c] ?? null)).join(', ')});`);
  }
  for (const o of objects.filter((x) => x.type !== 'table')) out.push(`${o.sql};`);
  out.push('COMMIT;');
  return `${out.join('\n')}\n`;
}

async function build(level: string): Promise<string> {
  const raw = new BetterSqlite3(':memory:');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: raw }) });
  const upTo = Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= level));
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => upTo } }).migrateToLatest();
  if (error) throw error;
  // The level's migration timestamps are the build's; the release date does not matter to an upgrade.
  const box = new SecretBox(Buffer.from(F.secretKeyBase64, 'base64'));
  const levelOrders = new Set(ordersAt(level).map((o) => o.id));
  for (const [table, list] of Object.entries(rows(box))) {
    const columns = new Set((raw.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name));
    if (columns.size === 0) continue;
    for (const row of list) {
      if ('order_id' in row && typeof row.order_id === 'string' && table !== 'whatsapp_messages' && !levelOrders.has(row.order_id)) continue;
      if (table === 'orders' && !levelOrders.has(row.id as string)) continue;
      const names = Object.keys(row).filter((c) => columns.has(c));
      raw.prepare(`INSERT INTO "${table}" (${names.map((c) => `"${c}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`).run(...names.map((c) => row[c]));
    }
  }
  const text = dump(raw);
  await db.destroy();
  return `-- A codrail database at migration level ${level}, with the rows of test/tools/upgrade-fixtures.ts.\n-- Generated: do not edit by hand. Loaded by test/db/upgrade.test.ts.\n${text}`;
}

mkdirSync(OUT, { recursive: true });
for (const level of LEVELS) {
  writeFileSync(`${OUT}${level}.sql`, await build(level));
  console.log(`fixtures/upgrade/${level}.sql`);
}
