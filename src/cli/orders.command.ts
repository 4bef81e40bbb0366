import type { Command } from 'commander';
import { LIST_DEFAULT_LIMIT } from '../limits.ts';
import { globals, intOption, print, shown, withApp } from './output.ts';

// Use-cases load when a command runs, so `codrail --help` starts fast (SPEC 14).
const loadOrders = () => import('../use-cases/orders/orders.use-case.ts');

type Summary = { order_number: number; id: string; status: string; nombre: string; ciudad: string; total_price: number; currency: string; needs_review: boolean; sandbox: boolean; created_at: string; store_name?: string; review_reason?: string | null };

// Lists mix stores: each line names its store; an order waiting for support says why and what to run.
// Stored text goes through shown() (issue 19 §3).
const line = (o: Summary) =>
  `#${o.order_number}  ${o.id}  ${o.store_name ? `[${shown(o.store_name)}]  ` : ''}${o.status.padEnd(9)} ${o.total_price} ${o.currency}  ${shown(o.nombre)} — ${shown(o.ciudad)}${o.sandbox ? '  [sandbox]' : ''}  ${o.created_at}${o.needs_review ? `\n    needs review: ${shown(o.review_reason ?? 'run orders resolve-city')}` : ''}`;
const lines = (list: Summary[]) => (list.length ? list.map(line).join('\n') : '(no orders)');

export function register(program: Command): void {
  const orders = program.command('orders').description('orders: list, show, search, resolve-city, set-status, update-buyer, cancel, note, events, push, push-confirmed, sync');
  orders
    .command('list')
    .description('list orders, newest first')
    .option('--store <id>', 'only this store')
    .option('--status <status>', 'pending | confirmed | processing | shipped | delivered | returned | cancelled')
    .option('--review', 'only orders whose city needs review')
    .option('--sandbox', 'only sandbox (test key) orders')
    .option('--limit <n>', 'how many', intOption('limit'), LIST_DEFAULT_LIMIT)
    .action(async (o: { store?: string; status?: string; review?: boolean; sandbox?: boolean; limit: number }, cmd: Command) => {
      const list = await withApp(cmd, async (app) => (await loadOrders()).listOrderSummaries(app, { storeId: o.store, status: o.status, review: o.review, sandbox: o.sandbox ? true : undefined, limit: o.limit }));
      print(globals(cmd), list, lines(list));
    });
  orders
    .command('show')
    .description('one order with its events and fulfillment state')
    .argument('<id-or-number>', 'order id, or order number')
    .option('--store <id>', 'store of the order number')
    .action(async (idOrNumber: string, o: { store?: string }, cmd: Command) => print(globals(cmd), await withApp(cmd, async (app) => (await loadOrders()).showOrder(app, idOrNumber, o.store))));
  orders
    .command('search')
    .description('search by number, buyer name, phone or city')
    .argument('<text>', 'what to look for')
    .option('--limit <n>', 'how many', intOption('limit'), LIST_DEFAULT_LIMIT)
    .action(async (text: string, o: { limit: number }, cmd: Command) => {
      const list = await withApp(cmd, async (app) => (await loadOrders()).searchOrderSummaries(app, text, o.limit));
      print(globals(cmd), list, lines(list));
    });
}
