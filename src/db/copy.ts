// `codrail db copy --from sqlite:FILE --to postgres://…` (issue 28 §4): an installation moved to
// PostgreSQL without losing an order, an event, a key, an image or an OAuth grant.
//
// - The source is read inside one read transaction: a consistent snapshot even while a server still
//   writes to it (what it takes after that moment is not in the copy, which the answer says).
// - The target must be empty (migrated here): a copy never merges into a database in use.
// - Everything is written in one transaction of the target: a failure leaves it as empty as it was.
// - Tables go in the order of their foreign keys (COPY_ORDER; test/db/copy.test.ts checks that it
//   names every table), rows in key order, in batches; then every table is counted on both sides.
import { sql, type Kysely } from 'kysely';
import { dialectOf, openDatabase, type Db } from './connect.ts';
import { migrateToLatest } from './migrate.ts';
import { invalidState } from '../errors.ts';
import { COPY_BATCH_ROWS } from '../limits.ts';

/** Every table, each after the tables its foreign keys point to, with the columns that order its rows. */
export const COPY_ORDER: readonly (readonly [table: string, orderBy: readonly string[]])[] = [
  ['accounts', ['id']],
  ['users', ['id']],
  ['stores', ['id']],
  ['store_order_numbers', ['store_id']],
  ['products', ['id']],
  ['product_packs', ['id']],
  ['landing_pages', ['id']],
  ['block_list', ['store_id', 'kind', 'value']],
  ['oauth_redirects', ['uri']],
  ['oauth_clients', ['id']],
  ['oauth_sessions', ['hash']],
  ['oauth_families', ['id']],
  ['oauth_codes', ['hash']],
  ['oauth_refresh_tokens', ['hash']],
  ['oauth_access_tokens', ['jti']],
  ['oauth_signing_keys', ['kid']],
  // A key made by another key (created_by_key) is newer than it.
  ['api_keys', ['created_at', 'id']],
  ['orders', ['id']],
  ['order_events', ['id']],
  ['idempotency_records', ['scope', 'key']],
  ['city_catalogs', ['country', 'catalog', 'region', 'city']],
  ['catalog_versions', ['country', 'catalog']],
  ['rate_limits', ['bucket']],
  ['fulfillment_webhook_events', ['event_id']],
  ['whatsapp_settings', ['store_id']],
  ['fulfillment_jobs', ['id']],
  ['fulfillment_connections', ['store_id']],
  ['whatsapp_messages', ['id']],
  ['whatsapp_numbers', ['phone_number_id']],
  ['whatsapp_inbound', ['wa_message_id']],
  ['whatsapp_early_statuses', ['wa_message_id', 'status']],
  ['outbox_circuits', ['kind', 'destination']],
  ['pace_slots', ['key']],
  ['webhook_endpoints', ['id']],
  ['webhook_events', ['seq']],
  ['webhook_deliveries', ['id']],
  ['webhook_attempts', ['delivery_id', 'attempt']],
  ['server_settings', ['name']],
  ['platform_city_catalogs', ['store_id', 'region', 'city']],
  ['platform_catalog_versions', ['store_id']],
  ['images', ['id']],
  ['image_variants', ['image_id', 'width', 'format']],
];

/** Rows a new database holds of its own (migrations add the MCP vendors' redirect URIs, `migrate` the bundled catalogs). */
const SEEDED = new Set(['oauth_redirects', 'city_catalogs', 'catalog_versions']);

export interface CopyResult {
  from: string;
  to: string;
  /** Rows copied, per table (every table, zeros included). */
  tables: Record<string, number>;
  rows: number;
  /** When the source was read: what a server still on it took after this is not in the copy. */
  as_of: string;
}

type AnyDb = Kysely<any>;

/** Image variants carry their bytes (up to a few hundred KB each): fewer at a time. */
const batch = (table: string) => (table === 'image_variants' ? 20 : COPY_BATCH_ROWS);

const count = async (db: AnyDb, table: string): Promise<number> =>
  Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** The source's rows, read in one snapshot, passed to `each` in batches. */
async function readAll(source: Db, each: (table: string, rows: Record<string, unknown>[]) => Promise<void>): Promise<void> {
  const read = async (db: AnyDb) => {
    for (const [table, orderBy] of COPY_ORDER) {
      let offset = 0;
      for (;;) {
        let q = db.selectFrom(table).selectAll();
        for (const column of orderBy) q = q.orderBy(column);
        const rows = (await q.limit(batch(table)).offset(offset).execute()) as Record<string, unknown>[];
        await each(table, rows);
        if (rows.length < batch(table)) break;
        offset += rows.length;
      }
    }
  };
  if (dialectOf(source) === 'sqlite') {
    // SQLite: a read transaction on the one connection is the snapshot.
    await source.connection().execute(async (conn) => {
      await sql`BEGIN`.execute(conn);
      try {
        await read(conn);
      } finally {
        await sql`COMMIT`.execute(conn);
      }
    });
  } else await source.transaction().setIsolationLevel('repeatable read').execute(read);
}

/** Copies the database at `from` into the empty one at `to` (both `openDatabase` locations). */
export async function copyDatabase(from: string, to: string, now: () => Date = () => new Date()): Promise<CopyResult> {
  if (from === to) throw invalidState('--from and --to name the same database');
  const source = openDatabase(from);
  const target = openDatabase(to);
  try {
    // The source as this release reads it (any command would migrate it the same way); the target new.
    await migrateToLatest(source.db);
    await migrateToLatest(target.db);
    for (const [table] of COPY_ORDER)
      if (!SEEDED.has(table) && (await count(target.db, table)) > 0)
        throw invalidState(`The target database is not empty (its ${table} has rows): db copy fills a new, empty database and never merges`);
    const tables: Record<string, number> = Object.fromEntries(COPY_ORDER.map(([t]) => [t, 0]));
    const asOf = now().toISOString();
    await target.db.transaction().execute(async (tx) => {
      // The target's own seeded rows give way to the source's, which are the installation's.
      for (const table of SEEDED) await tx.deleteFrom(table as never).execute();
      await readAll(source.db, async (table, rows) => {
        if (rows.length === 0) return;
        await tx.insertInto(table as never).values(rows as never).execute();
        tables[table]! += rows.length;
      });
      // PostgreSQL's identity column goes on from the highest copied sequence number.
      if (dialectOf(target.db) === 'postgres')
        await sql`SELECT setval(pg_get_serial_sequence('webhook_events', 'seq'), coalesce((SELECT max(seq) FROM webhook_events), 0) + 1, false)`.execute(tx);
      // Read back inside the transaction: every table holds what was read, or nothing commits.
      for (const [table] of COPY_ORDER) {
        const there = await count(tx, table);
        if (there !== tables[table]) throw new Error(`db copy: ${table} holds ${there} rows after copying ${tables[table]}`);
      }
    });
    return { from, to, tables, rows: Object.values(tables).reduce((a, b) => a + b, 0), as_of: asOf };
  } finally {
    await source.close();
    await target.close();
  }
}
