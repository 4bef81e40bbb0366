// The `codrail` program (SPEC 9). Global options: --db and --json; exit 0 ok, 1 failure, 2 usage.
// main.ts runs it from dist/ and the sources; sea-main.ts from the single executable (issue 27).
import { Command, CommanderError } from 'commander';
import { register as migrate } from './migrate.command.ts';
import { register as serve } from './serve.command.ts';
import { register as demo } from './demo.command.ts';
import { register as accounts } from './accounts.command.ts';
import { register as stores } from './stores.command.ts';
import { register as keys } from './keys.command.ts';
import { register as orders } from './orders.command.ts';
import { register as cities } from './cities.command.ts';
import { register as fulfillment } from './fulfillment.command.ts';
import { register as oauth } from './oauth.command.ts';
import { register as whatsapp } from './whatsapp.command.ts';
import { register as secrets } from './secrets.command.ts';
import { register as consoleApp } from './console.command.ts';
import { register as backup } from './backup.command.ts';
import { register as database } from './db.command.ts';
import { registerGroups, registerOperations, requestedGroup } from './operations.command.ts';
import { fail, printJsonError } from './output.ts';
import { GROUP_OPERATIONS } from './operation-options.ts';

/** The program for a command line; the derived commands of the group it names are attached (they load that group's use-cases). */
export async function buildProgram(argv: readonly string[], version = '0.1.0'): Promise<Command> {
  const program = new Command('codrail')
    .description('cash-on-delivery commerce rail: order API, account operations, city catalogs, fulfillment push')
    .version(version)
    .option('--db <file>', 'SQLite database file (CODRAIL_DB, default ./codrail.sqlite)')
    .option('--database-url <url>', 'PostgreSQL instead of SQLite: postgres://user:password@host/db (CODRAIL_DATABASE_URL)')
    .option('--json', 'print exactly one JSON document on stdout')
    .showHelpAfterError()
    .exitOverride();
  for (const group of [migrate, serve, demo, backup, database, accounts, stores, keys, orders, cities, fulfillment, whatsapp, oauth, secrets, consoleApp]) group(program);
  registerGroups(program);
  // Only a command line that names a derived group pays for loading its use-cases, and only that
  // group's (SPEC 14: `--help` stays fast; issue 26: so does `orders list`). A hand-written command
  // of the group with no sub-commands (`orders list`; not `stores domains`, where derived ones join
  // it) needs none of them.
  const requested = requestedGroup(argv);
  const written = program.commands.find((c) => c.name() === requested?.group)?.commands.find((c) => c.name() === requested?.command);
  const handWritten = written !== undefined && written.commands.length === 0;
  if (requested && !handWritten) await registerOperations(program, await GROUP_OPERATIONS[requested.group]!(), requested.group);
  // Sub-commands inherit the usage-error behaviour.
  const walk = (cmd: Command) => {
    cmd.exitOverride();
    cmd.showHelpAfterError();
    cmd.commands.forEach(walk);
  };
  walk(program);
  return program;
}

/** Runs one command line (argv as process.argv has it); exits on usage errors and failures. */
export async function run(argv: readonly string[], version?: string): Promise<void> {
  try {
    await (await buildProgram(argv.slice(2), version)).parseAsync(argv as string[]);
  } catch (error) {
    if (error instanceof CommanderError) {
      const ok = ['commander.helpDisplayed', 'commander.version', 'commander.help', 'commander.executeSubCommandAsync'].includes(error.code);
      const code = ok || error.exitCode === 0 ? 0 : 2;
      // Commander has said it on stderr; with --json the usage error is a JSON document on stdout too.
      if (code === 2) printJsonError('usage', error.message.replace(/^error: /, ''));
      process.exit(code);
    }
    fail(error);
  }
}
