// What every order reads and almost nothing writes — the store, its key, product and packs, its
// WhatsApp settings, webhook endpoints, platform connection — kept in memory under kysely
// (issue 26), so the hot path asks SQLite only for what changes with traffic.
//
// The cache sits below every query, at the statement, so no code path can forget to invalidate it:
// - a SELECT is cached only when every table it names is a configuration table (CACHED_TABLES);
// - any statement that may change one of them empties the cache: a write to a table outside
//   TRAFFIC_TABLES, any DDL or pragma, any ROLLBACK (a read inside a transaction may have seen rows
//   that never committed);
// - another connection's commit (the CLI beside `serve`, a second process) moves SQLite's
//   `PRAGMA data_version`, which empties it too. It is checked at the first cached read of each
//   turn of the event loop and at the start of every transaction (BEGIN), not before every read:
//   the check costs 3.7 µs and an order makes eight cached reads (7% of its CPU). Nothing from
//   outside reaches this process within one turn, so a request that arrives after another process
//   committed always sees that commit; and no other process commits inside our transaction.
// Writes to traffic tables (orders, events, jobs, counters…) never reach a configuration table:
// test/db/read-cache.test.ts checks on the migrated schema that no cascade and no trigger leads
// from one to the other.
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';
import { READ_CACHE_MAX_ENTRIES } from '../limits.ts';

/**
 * Configuration: read on every order, written by a person (or an operation) now and then. Not the
 * block list: it is asked per phone and IP, keys that would fill the cache with one-time entries.
 */
export const CACHED_TABLES: ReadonlySet<string> = new Set([
  'accounts',
  'stores',
  'api_keys',
  'products',
  'product_packs',
  'landing_pages',
  'whatsapp_settings',
  'webhook_endpoints',
  'fulfillment_connections',
  'catalog_versions',
  'platform_catalog_versions',
]);

/** Traffic: written all day, and no configuration row depends on them. */
export const TRAFFIC_TABLES: ReadonlySet<string> = new Set([
  'orders',
  'order_events',
  'fulfillment_jobs',
  'fulfillment_webhook_events',
  'rate_limits',
  'idempotency_records',
  'webhook_events',
  'webhook_deliveries',
  'webhook_attempts',
  'whatsapp_messages',
  'whatsapp_inbound',
  'store_order_numbers',
  'oauth_codes',
  'oauth_sessions',
  'oauth_families',
  'oauth_access_tokens',
  'oauth_refresh_tokens',
  'images',
  'image_variants',
  // Written by the outbox and the pacer on every job or call (issue 28).
  'outbox_circuits',
  'pace_slots',
  'whatsapp_early_statuses',
]);

const TABLE_NAMES = /\b(?:from|join)\s+"?(\w+)"?/gi;
const WRITE_TARGET = /^\s*(?:insert\s+(?:or\s+\w+\s+)?into|update(?:\s+or\s+\w+)?|delete\s+from)\s+"?(\w+)"?/i;
const HARMLESS = /^\s*(?:begin|commit|end|savepoint|release)\b/i;

type Kind = { cached: true } | { cached: false; invalidates: boolean };

/** What a statement does to the cache, from its text (kysely's SQL: quoted identifiers). */
export function classify(sqlText: string, reader: boolean): Kind {
  const write = WRITE_TARGET.exec(sqlText);
  if (write) {
    return { cached: false, invalidates: !TRAFFIC_TABLES.has(write[1]!.toLowerCase()) };
  }
  // A `WITH … UPDATE … RETURNING` is a reader too: only a statement that writes nothing is cached.
  if (/^\s*(?:select|with)\b/i.test(sqlText) && reader && !/\b(?:insert|update|delete|replace)\b/i.test(sqlText)) {
    const tables = [...sqlText.matchAll(TABLE_NAMES)].map((m) => m[1]!.toLowerCase());
    const cached = tables.length > 0 && tables.every((t) => CACHED_TABLES.has(t));
    return cached ? { cached: true } : { cached: false, invalidates: false };
  }
  return { cached: false, invalidates: !HARMLESS.test(sqlText) };
}

/** One connection's cached rows, by statement and parameters. */
export class ReadCache {
  /** Per cached statement text, its rows by parameters; `#size` counts them all. */
  readonly #statements = new Map<string, Map<string, readonly unknown[]>>();
  #size = 0;
  readonly #dataVersion: BetterSqlite3.Statement;
  #version: unknown;
  /** data_version was read in this turn of the event loop (reset by a setImmediate). */
  #checked = false;
  readonly #nextTurn = () => {
    this.#checked = false;
  };

  constructor(raw: BetterSqlite3.Database) {
    this.#dataVersion = raw.prepare('PRAGMA data_version').pluck();
  }

  /** Empties the cache when another connection committed since the last look. */
  #checkVersion(): void {
    if (this.#checked) return;
    this.#checked = true;
    setImmediate(this.#nextTurn);
    const version = this.#dataVersion.get();
    if (version !== this.#version) {
      this.clear();
      this.#version = version;
    }
  }

  /**
   * A request from outside begins (the HTTP shell calls this through `deps.freshReads`): the next
   * cached read looks at data_version again, even within the turn it was last read in. The turn's
   * flag alone missed a commit by another process when the flag was set in the event loop's check
   * phase (a group commit's BEGIN): its reset ran only after the next poll phase, whose requests
   * were then answered from the cache (up to one worker poll, 250 ms, after a price changed).
   */
  newTurn(): void {
    this.#checked = false;
  }

  clear(): void {
    if (this.#size === 0) return;
    for (const rows of this.#statements.values()) rows.clear();
    this.#size = 0;
  }

  /** The statement kysely runs: cached reads, invalidating writes, everything else as it was. */
  wrap(sqlText: string, statement: BetterSqlite3.Statement): SqliteStatement {
    const kind = classify(sqlText, statement.reader);
    if (kind.cached) return this.#cachedRead(sqlText, statement);
    if (/^\s*begin\b/i.test(sqlText))
      // A transaction sees every commit made before it began: so do the cached reads inside it.
      return {
        reader: false,
        all: (parameters) => statement.all(parameters as unknown[]),
        run: (parameters) => {
          const result = statement.run(parameters as unknown[]);
          this.#checked = false;
          this.#checkVersion();
          return result;
        },
        iterate: (parameters) => statement.iterate(parameters as unknown[]),
      };
    if (!kind.invalidates) return statement as unknown as SqliteStatement;
    return {
      reader: statement.reader,
      all: (parameters) => {
        this.clear();
        return statement.all(parameters as unknown[]);
      },
      run: (parameters) => {
        this.clear();
        return statement.run(parameters as unknown[]);
      },
      iterate: (parameters) => {
        this.clear();
        return statement.iterate(parameters as unknown[]);
      },
    };
  }

  #cachedRead(sqlText: string, statement: BetterSqlite3.Statement): SqliteStatement {
    // One map per text, kept when the statement cache prepares the text again.
    const cached = this.#statements.get(sqlText) ?? new Map<string, readonly unknown[]>();
    this.#statements.set(sqlText, cached);
    return {
      reader: true,
      all: (parameters) => {
        // Another connection committed since the last look: anything kept may be stale.
        this.#checkVersion();
        const key = JSON.stringify(parameters);
        let rows = cached.get(key);
        if (rows === undefined) {
          // Shared by every caller from now on: frozen, so a caller that edits a row fails loudly.
          rows = Object.freeze((statement.all(parameters as unknown[]) as object[]).map((row) => Object.freeze(row)));
          // Bounded: unknown keys tried one after another must not grow memory.
          if (this.#size >= READ_CACHE_MAX_ENTRIES) this.clear();
          cached.set(key, rows);
          this.#size++;
        }
        return rows.slice();
      },
      run: (parameters) => statement.run(parameters as unknown[]),
      iterate: (parameters) => statement.iterate(parameters as unknown[]),
    };
  }
}
