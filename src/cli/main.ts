// The `codrail` program (SPEC 9). Global options: --db and --json; exit 0 ok, 1 failure, 2 usage.
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
import { registerGroups, registerOperations, requestedGroup } from './operations.command.ts';
import { fail, printJsonError } from './output.ts';

/** The program; the account operations' commands are attached when `withOperations` (they load the use-cases). */
export async function buildProgram(withOperations: boolean): Promise<Command> {
  const program = new Command('codrail')
    .description('cash-on-delivery commerce rail: order API, account operations, city catalogs, fulfillment push')
    .version('0.1.0')
    .option('--db <file>', 'SQLite database file (CODRAIL_DB, default ./codrail.sqlite)')
    .option('--json', 'print exactly one JSON document on stdout')
    .showHelpAfterError()
    .exitOverride();
  for (const group of [migrate, serve, demo, accounts, stores, keys, orders, cities, fulfillment, whatsapp, oauth, secrets, consoleApp]) group(program);
  registerGroups(program);
  // Only a command line that names a derived group pays for loading every use-case (SPEC 14: `--help` stays fast).
  if (withOperations) await registerOperations(program, (await import('../use-cases/operations/index.ts')).OPERATIONS);
  // Sub-commands inherit the usage-error behaviour.
  const walk = (cmd: Command) => {
    cmd.exitOverride();
    cmd.showHelpAfterError();
    cmd.commands.forEach(walk);
  };
  walk(program);
  return program;
}

try {
  await (await buildProgram(requestedGroup(process.argv.slice(2)) !== undefined)).parseAsync(process.argv);
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
