// Queries built and compiled by kysely once, then run again with new values (issue 26). Building a
// kysely query and compiling it to SQL costs more than SQLite takes to run most of ours; the
// statement text of a hot query never changes, only its values. Kysely still writes the SQL (in
// the database's dialect), so the query stays a typed kysely query.
//
// The query is built with slots in place of its values; compiling it yields the SQL and, in the
// order the statement takes them, the slots, which say where each value goes. Any other value is
// a constant of the query (`eb('kind', '=', 'phone')`) and is sent as it was at compile time: the
// build function uses only its slots and literals, never a variable from around it.
import { CompiledQuery, type Compilable, type QueryResult } from 'kysely';
import { dialectOf, type Db, type Dialect } from './connect.ts';
import type { Tx } from './transaction.ts';

/** A placeholder for the value passed at position `index`. */
export class Slot {
  constructor(readonly index: number) {}
}

interface Compiled {
  sql: string;
  /** For each parameter of the statement, the position of the value it takes, or its constant. */
  parameters: (Slot | string | number | null)[];
}

function compile(query: Compilable<unknown>): Compiled {
  const { sql, parameters } = query.compile();
  for (const p of parameters)
    if (!(p instanceof Slot) && p !== null && typeof p !== 'string' && typeof p !== 'number') throw new Error(`compiled once: a value of the query is neither a slot nor a literal: ${String(p)}`);
  return { sql, parameters: parameters as Compiled['parameters'] };
}

const run = <R>(db: Db | Tx, c: Compiled, values: readonly unknown[]): Promise<QueryResult<R>> =>
  db.executeQuery<R>(CompiledQuery.raw(c.sql, c.parameters.map((p) => (p instanceof Slot ? values[p.index] : p))));

/**
 * A query of fixed shape: `build` receives one slot per argument and returns the kysely query; each
 * call runs the SQL compiled on the first, with its arguments as the values.
 */
export function compiledOnce<A extends unknown[], R>(build: (db: Db | Tx, ...slots: A) => Compilable<R>): (db: Db | Tx, ...args: A) => Promise<R[]> {
  // Per dialect: one process may run the query on SQLite and on PostgreSQL (db copy, the tests).
  const byDialect = new Map<Dialect, Compiled>();
  return async (db, ...args) => {
    const dialect = dialectOf(db);
    let compiled = byDialect.get(dialect);
    if (!compiled) byDialect.set(dialect, (compiled = compile(build(db, ...(args.map((_, i) => new Slot(i)) as A)))));
    return (await run<R>(db, compiled, args)).rows;
  };
}

/**
 * An insert of a row (or a query whose shape is a row's columns): compiled once per set of columns,
 * the row's values taken in its columns' order.
 */
export function compiledPerRow<T extends object, R>(build: (db: Db | Tx, row: T) => Compilable<R>): (db: Db | Tx, row: T) => Promise<R[]> {
  const byColumns = new Map<string, Compiled>();
  return async (db, row) => {
    // Kysely leaves out a column whose value is undefined: so does the shape.
    const entries = Object.entries(row).filter(([, v]) => v !== undefined);
    const key = `${dialectOf(db)}:${entries.map(([c]) => c).join(',')}`;
    let compiled = byColumns.get(key);
    if (!compiled) {
      const slots = Object.fromEntries(entries.map(([c], i) => [c, new Slot(i)])) as T;
      byColumns.set(key, (compiled = compile(build(db, slots))));
    }
    return (await run<R>(db, compiled, entries.map(([, v]) => v))).rows;
  };
}
