import type { Command } from 'commander';
import { globals, print, withApp } from './output.ts';

// Use-cases load when a command runs, so `codrail --help` starts fast (SPEC 14). The other store
// commands (create, list, get, update, archive, domains add|remove) derive from the account operations.
const loadStores = () => import('../use-cases/stores/stores.use-case.ts');
const loadCaller = () => import('../use-cases/caller.ts');

export function register(program: Command): void {
  const stores = program.command('stores').description('stores: one country and currency each; domains, archive');
  const domains = stores.command('domains').description("a store's allowed checkout domains");
  domains
    .command('list')
    .description('list allowed domains')
    .argument('<store>', 'store id')
    .action(async (store: string, _o, cmd: Command) =>
      print(globals(cmd), await withApp(cmd, async (app) => (await loadStores()).listStoreDomains(app, (await loadCaller()).OPERATOR, store))),
    );
}
