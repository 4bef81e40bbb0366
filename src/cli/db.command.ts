// `codrail db copy --from sqlite:FILE --to postgres://…` (issue 28 §4; src/db/copy.ts): moving an
// installation from SQLite to PostgreSQL (or back), saying what it copied.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { globals, print } from './output.ts';
import { isPostgresUrl, withoutPassword } from '../config.ts';
import { invalidInput } from '../errors.ts';

/** `sqlite:FILE`, a file path, or a postgres:// URL: what openDatabase takes. */
function location(option: string, value: string): string {
  if (isPostgresUrl(value)) return value;
  const file = value.replace(/^sqlite:/, '');
  if (file === '') throw invalidInput(`--${option} needs sqlite:FILE or a postgres:// URL`, [{ field: option, message: 'sqlite:FILE or postgres://…' }]);
  return file;
}

const shown = (where: string): string => (isPostgresUrl(where) ? withoutPassword(where) : `sqlite:${where}`);

export function register(program: Command): void {
  const db = program.command('db').description('move the database: copy an installation from SQLite to PostgreSQL');
  db.command('copy')
    .description('copy every row of one database into a new, empty one (stop serve on the source first: what it takes after the copy starts is not copied)')
    .requiredOption('--from <db>', 'the source: sqlite:FILE (or a file path) or postgres://…')
    .requiredOption('--to <db>', 'the target, empty: postgres://user:password@host/db (or sqlite:FILE)')
    .action(async (opts: { from: string; to: string }, cmd: Command) => {
      const from = location('from', opts.from);
      const to = location('to', opts.to);
      const { copyDatabase } = await import('../db/copy.ts');
      const result = await copyDatabase(from, to);
      const answer = { ...result, from: shown(from), to: shown(to) };
      const lines = [
        `copied ${result.rows.toLocaleString('en')} rows from ${answer.from} to ${answer.to}, as of ${result.as_of}:`,
        ...Object.entries(result.tables)
          .filter(([, n]) => n > 0)
          .map(([table, n]) => `  ${table.padEnd(28)} ${n.toLocaleString('en').padStart(10)}`),
        isPostgresUrl(from)
          ? 'secrets stay sealed with the same key: give the target the source\u2019s key'
          : existsSync(`${from}.key`)
            ? `secrets stay sealed with the SQLite installation's key: give every instance that key (CODRAIL_SECRET_KEY_FILE=${from}.key, or the CODRAIL_SECRET_KEY it ran with)`
            : `the SQLite installation has no key file (no secret sealed yet, or its key came from CODRAIL_SECRET_KEY): give every instance one key (the same CODRAIL_SECRET_KEY, or a new one: openssl rand -base64 32)`,
      ];
      print(globals(cmd), answer, lines.join('\n'));
    });
}
