import type { Command } from 'commander';
import { collect, globals, intOption, print, withApp } from './output.ts';

// Use-cases load when a command runs, so `codrail --help` starts fast (SPEC 14). `keys list|update|
// revoke|create-publishable|create-secret` derive from the account operations; `create --type` is
// SPEC 9's spelling of the two creations, and `roll` has no MCP tool.
const loadKeys = () => import('../use-cases/keys/keys.use-case.ts');
const loadCaller = () => import('../use-cases/caller.ts');

const shownOnce = 'Store this key now: it is shown once and only its SHA-256 hash is kept.';

export function register(program: Command): void {
  const keys = program.command('keys').description('API keys: publishable (checkouts) and secret (server to server)');
  keys
    .command('create')
    .description('create a key (shown once)')
    .requiredOption('--store <id>', 'store id')
    .requiredOption('--type <type>', 'publishable | secret')
    .option('--env <env>', 'live | test (test keys create sandbox orders)', 'live')
    .option('--domain <host>', "allowed origin host for a publishable key, one of the store's domains (repeatable; default: follow the store domains)", collect, [])
    .option('--product <id>', 'allowed product for a publishable key (repeatable; default: all)', collect, [])
    .option('--label <label>', 'a name to recognise it by')
    .option('--scope <scope>', 'what a secret key may do, e.g. orders:read (repeatable; default: every scope)', collect, [])
    .action(async (o: { store: string; type: string; env: string; domain: string[]; product: string[]; label?: string; scope: string[] }, cmd: Command) => {
      const key = await withApp(cmd, async (app) =>
        (await loadKeys()).createKey(app, (await loadCaller()).OPERATOR, { store_id: o.store, type: o.type, env: o.env, domains: o.domain, products: o.product, label: o.label, scopes: o.scope }),
      );
      if (!globals(cmd).json) process.stderr.write(`${shownOnce}\n`);
      print(globals(cmd), key, key.key);
    });
  keys
    .command('roll')
    .description('issue a replacement key; the old one is revoked after the grace period')
    .argument('<id>', 'key id')
    .option('--grace <minutes>', 'minutes the old key keeps working', intOption('grace'), 0)
    .action(async (id: string, o: { grace: number }, cmd: Command) => {
      const key = await withApp(cmd, async (app) => (await loadKeys()).rollApiKey(app, (await loadCaller()).OPERATOR, id, o.grace));
      if (!globals(cmd).json) process.stderr.write(`${shownOnce}\n`);
      print(globals(cmd), key, key.key);
    });
}
