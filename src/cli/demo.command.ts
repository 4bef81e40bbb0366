import type { Command } from 'commander';
import { globals, print, shown, withApp } from './output.ts';

// Use-cases load when a command runs, so `codrail --help` starts fast (SPEC 14).
const loadDemo = () => import('../use-cases/demo.use-case.ts');

export function register(program: Command): void {
  program
    .command('demo')
    .description('create (once) the demo account, store, product and landing; issue a fresh demo test key')
    .action(async (_o, cmd: Command) => {
      const demo = await withApp(cmd, async (app) => (await loadDemo()).runDemo(app));
      print(
        globals(cmd),
        demo,
        [
          `account  ${demo.account.id}  ${shown(demo.account.name)}`,
          `store    ${demo.store.id}  ${shown(demo.store.name)} (${demo.store.country}, ${demo.store.currency})`,
          `product  ${demo.product.id}  ${shown(demo.product.name)}`,
          `landing  ${demo.landing.id}  ${demo.landing.url}`,
          `test key ${demo.key.key}  (shown once)`,
          '',
          'with `codrail serve` running, place a first order:',
          `  ${demo.curl}`,
        ].join('\n'),
      );
    });
}
