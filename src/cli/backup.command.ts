// `codrail backup FILE` and `codrail restore FILE` (issue 27 §3; src/db/backup.ts): a consistent
// copy while `serve` runs, and putting one back with the server stopped. Both work on the database
// file as it is: neither migrates it (a restored older backup is migrated by the next command).
// A failure reaches program.ts's run(), which prints it the CLI's way.
import type { Command } from 'commander';
import { config, globals, print } from './output.ts';
import { invalidState } from '../errors.ts';
import type { Config } from '../config.ts';

/** Both are SQLite's: PostgreSQL has its own tools, which the README's "Backups" section gives. */
function sqliteOnly(c: Config, command: string): Config {
  if (c.databaseUrl !== undefined)
    throw invalidState(`codrail ${command} copies a SQLite file; on PostgreSQL use pg_dump and pg_restore (README, "Backups"), and keep the sealing key (CODRAIL_SECRET_KEY_FILE) with the dump`);
  return c;
}

const load = () => import('../db/backup.ts');

export function register(program: Command): void {
  program
    .command('backup')
    .description("take a consistent copy of the database while serve runs (SQLite's online backup), with the key file beside it as FILE.key")
    .argument('<file>', 'where to write the copy: a new file (never overwritten)')
    .action(async (file: string, _o: unknown, cmd: Command) => {
      const c = sqliteOnly(config(globals(cmd)), 'backup');
      const result = await (await load()).backupDatabase(c.dbFile, file, c.secretKey !== undefined);
      const key =
        result.key === null
          ? 'no key file yet (no secret has been sealed)'
          : 'file' in result.key
            ? `the sealing key copied to ${result.key.file}: keep it with the backup, apart from other people's eyes`
            : 'the sealing key comes from CODRAIL_SECRET_KEY (or CODRAIL_SECRET_KEY_FILE): keep it safe with the backup (it is not in the file)';
      print(globals(cmd), result, `backed up ${result.database} (${result.orders} orders, ${(result.bytes / 1e6).toFixed(1)} MB) to ${result.backup}; ${key}`);
    });
  program
    .command('restore')
    .description('put a backup in place of the database: refused while serve (or any command) has it open; the current database is kept beside it')
    .argument('<file>', 'a file written by codrail backup (its FILE.key, when present, restores the key file too)')
    .action(async (file: string, _o: unknown, cmd: Command) => {
      const c = sqliteOnly(config(globals(cmd)), 'restore');
      const result = (await load()).restoreDatabase(c.dbFile, file, new Date());
      const lines = [
        `restored ${result.restored_from} to ${result.database} (${result.orders} orders)`,
        result.previous ? `the database that was there is kept as ${result.previous}` : 'there was no database there before',
        ...(result.key ? [`the key file ${result.key.file} restored from ${file}.key${result.key.previous ? ` (the previous one kept as ${result.key.previous})` : ''}`] : []),
        'the next command or serve migrates it if it is older than this release',
      ];
      print(globals(cmd), result, lines.join('\n'));
    });
}
