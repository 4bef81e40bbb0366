import type { Command } from 'commander';
import { collect, globals, intOption, print, withApp } from './output.ts';

// Use-cases load when a command runs, so `codrail --help` starts fast (SPEC 14).
const loadStores = () => import('../use-cases/stores/stores.use-case.ts');

export function register(program: Command): void {
  const stores = program.command('stores').description('stores: one country and currency each');
  stores
    .command('create')
    .description('create a store')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'store name')
    .requiredOption('--country <cc>', 'ISO 3166-1 alpha-2 country')
    .requiredOption('--currency <cur>', 'ISO 4217 currency')
    .option('--domain <host>', 'allowed checkout domain (repeatable; *.example.com for subdomains)', collect, [])
    .option('--max-discount <pct>', 'largest discount off a pack price before the anti-fraud floor (default 30)', intOption('max-discount'))
    .action(async (o: { account: string; name: string; country: string; currency: string; domain: string[]; maxDiscount?: number }, cmd: Command) => {
      const store = await withApp(cmd, async (app) =>
        (await loadStores()).createStore(app, { account_id: o.account, name: o.name, country: o.country, currency: o.currency, domains: o.domain, max_discount_pct: o.maxDiscount }),
      );
      print(globals(cmd), store);
    });
  stores
    .command('list')
    .description('list stores')
    .option('--account <id>', 'only this account')
    .action(async (o: { account?: string }, cmd: Command) => print(globals(cmd), await withApp(cmd, async (app) => (await loadStores()).listAllStores(app, o.account))));

  const domains = stores.command('domains').description("a store's allowed checkout domains");
  for (const action of ['add', 'remove'] as const)
    domains
      .command(action)
      .description(`${action} an allowed domain`)
      .argument('<store>', 'store id')
      .argument('<host>', 'host name, or *.example.com')
      .action(async (store: string, host: string, _o, cmd: Command) =>
        print(globals(cmd), await withApp(cmd, async (app) => (await loadStores()).changeStoreDomain(app, store, host, action))),
      );
  domains
    .command('list')
    .description('list allowed domains')
    .argument('<store>', 'store id')
    .action(async (store: string, _o, cmd: Command) => print(globals(cmd), await withApp(cmd, async (app) => (await loadStores()).listStoreDomains(app, store))));
}
