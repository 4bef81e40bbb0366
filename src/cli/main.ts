// The `codrail` program (SPEC 9). Global options: --db and --json; exit 0 ok, 1 failure, 2 usage.
import { Command, CommanderError } from 'commander';
import { register as migrate } from './migrate.command.ts';
import { register as serve } from './serve.command.ts';
import { register as demo } from './demo.command.ts';
import { register as accounts } from './accounts.command.ts';
import { register as stores } from './stores.command.ts';
import { register as products } from './products.command.ts';
import { register as keys } from './keys.command.ts';
import { register as orders } from './orders.command.ts';
import { register as cities } from './cities.command.ts';
import { register as fulfillment } from './fulfillment.command.ts';
import { register as oauth } from './oauth.command.ts';
import { fail } from './output.ts';

export function buildProgram(): Command {
  const program = new Command('codrail')
    .description('cash-on-delivery commerce rail: order API, city catalogs, fulfillment push')
    .version('0.1.0')
    .option('--db <file>', 'SQLite database file (CODRAIL_DB, default ./codrail.sqlite)')
    .option('--json', 'print exactly one JSON document on stdout')
    .showHelpAfterError()
    .exitOverride();
  for (const group of [migrate, serve, demo, accounts, stores, products, keys, orders, cities, fulfillment, oauth]) group(program);
  // Sub-commands inherit the usage-error behaviour.
  const walk = (cmd: Command) => {
    cmd.exitOverride();
    cmd.commands.forEach(walk);
  };
  walk(program);
  return program;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    const ok = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code);
    process.exit(ok ? 0 : error.exitCode === 0 ? 0 : 2);
  }
  fail(error);
}
