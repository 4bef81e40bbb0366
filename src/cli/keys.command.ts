import type { Command } from 'commander';
import { collect, globals, intOption, print, withApp } from './output.ts';

// Use-cases load when a command runs, so `codrail --help` starts fast (SPEC 14).
const loadKeys = () => import('../use-cases/keys/keys.use-case.ts');

const shownOnce = 'Store this key now: it is shown once and only its SHA-256 hash is kept.';

export function register(program: Command): void {
  const keys = program.command('keys').description('API keys: publishable (checkouts) and secret (server to server)');
  keys
    .command('create')
    .description('create a key (shown once)')
    .requiredOption('--store <id>', 'store id')
    .requiredOption('--type <type>', 'publishable | secret')
    .option('--env <env>', 'live | test (test keys create sandbox orders)', 'live')
    .option('--domain <host>', 'allowed origin host for a publishable key (repeatable; default: the store domains)', collect, [])
    .option('--product <id>', 'allowed product for a publishable key (repeatable; default: all)', collect, [])
    .option('--label <label>', 'a name to recognise it by')
    .action(async (o: { store: string; type: string; env: string; domain: string[]; product: string[]; label?: string }, cmd: Command) => {
      const key = await withApp(cmd, async (app) => (await loadKeys()).createKey(app, { store_id: o.store, type: o.type, env: o.env, domains: o.domain, products: o.product, label: o.label }));
      if (!globals(cmd).json) process.stderr.write(`${shownOnce}\n`);
      print(globals(cmd), key, key.key);
    });
  keys
    .command('list')
    .description('list keys (prefixes only, never the keys)')
    .option('--store <id>', 'only this store')
    .action(async (o: { store?: string }, cmd: Command) => print(globals(cmd), await withApp(cmd, async (app) => (await loadKeys()).listStoreKeys(app, o.store))));
  keys
    .command('revoke')
    .description('revoke a key immediately')
    .argument('<id>', 'key id')
    .action(async (id: string, _o, cmd: Command) => print(globals(cmd), await withApp(cmd, async (app) => (await loadKeys()).revokeApiKey(app, id))));
  keys
    .command('roll')
    .description('issue a replacement key; the old one is revoked after the grace period')
    .argument('<id>', 'key id')
    .option('--grace <minutes>', 'minutes the old key keeps working (default 0)', intOption('grace'), 0)
    .action(async (id: string, o: { grace: number }, cmd: Command) => {
      const key = await withApp(cmd, async (app) => (await loadKeys()).rollApiKey(app, id, o.grace));
      if (!globals(cmd).json) process.stderr.write(`${shownOnce}\n`);
      print(globals(cmd), key, key.key);
    });
}
