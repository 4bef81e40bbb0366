import type { Command } from 'commander';
import { LIST_DEFAULT_LIMIT } from '../limits.ts';
import { globals, intOption, print, shown, withApp } from './output.ts';

// Use-cases load when a command runs, so `codrail --help` starts fast (SPEC 14).
const loadOrders = () => import('../use-cases/orders/orders.use-case.ts');

type Summary = {
  order_number: number;
  id: string;
  status: string;
  nombre: string;
  ciudad: string;
  total_price: number;
  currency: string;
  needs_review: boolean;
  sandbox: boolean;
  created_at: string;
  store_name?: string;
  review_reason?: string | null;
  risk?: { score: number; reasons: { text: string }[] };
  confirmation_state?: string | null;
};

/** A risky order says so on its line (the score, and its strongest reason); so does one waiting for the buyer or for a call. */
const riskNote = (o: Summary) => (o.risk && o.risk.score >= 30 ? `  risk ${o.risk.score}${o.risk.reasons[0] ? ` (${shown(o.risk.reasons[0].text)})` : ''}` : '');
const confirmationNote = (o: Summary) => (o.confirmation_state && o.confirmation_state !== 'answered' ? `  [${o.confirmation_state === 'call' ? 'call the buyer' : `confirmation: ${o.confirmation_state}`}]` : '');

// Lists mix stores: each line names its store; an order waiting for support says why and what to run.
// Stored text goes through shown() (issue 19 §3).
const line = (o: Summary) =>
  `#${o.order_number}  ${o.id}  ${o.store_name ? `[${shown(o.store_name)}]  ` : ''}${o.status.padEnd(9)} ${o.total_price} ${o.currency}  ${shown(o.nombre)} — ${shown(o.ciudad)}${o.sandbox ? '  [sandbox]' : ''}${confirmationNote(o)}${riskNote(o)}  ${o.created_at}${o.needs_review ? `\n    needs review: ${shown(o.review_reason ?? 'run orders resolve-city')}` : ''}`;
const lines = (list: Summary[]) => (list.length ? list.map(line).join('\n') : '(no orders)');

export function register(program: Command): void {
  const orders = program.command('orders').description('orders: list, show, search, resolve-city, set-status, update-buyer, cancel, note, events, push, push-confirmed, sync');
  orders
    .command('list')
    .description('list orders, newest first (or riskiest first): the filters of list_orders')
    .option('--store <id>', 'only this store')
    .option('--status <status>', 'pending | confirmed | processing | shipped | delivered | returned | cancelled')
    .option('--review', 'only orders whose city needs review')
    .option('--sandbox', 'only sandbox (test key) orders')
    .option('--confirmation <state>', "where the buyer's confirmation stands: asked | reminded | call (the call queue) | replied | correcting | answered")
    .option('--risk-min <n>', 'only orders with a return risk of at least n (0-100)', intOption('risk-min'))
    .option('--sort <order>', 'newest (default) | risk (riskiest first)')
    .option('--account <id>', 'only this account')
    .option('--limit <n>', 'how many', intOption('limit'), LIST_DEFAULT_LIMIT)
    .action(async (o: { store?: string; status?: string; review?: boolean; sandbox?: boolean; confirmation?: string; riskMin?: number; sort?: string; account?: string; limit: number }, cmd: Command) => {
      const list = await withApp(cmd, async (app) => {
        const [{ listOrderSummaries }, { OPERATOR, operatorAs }] = await Promise.all([loadOrders(), import('../use-cases/caller.ts')]);
        const input = {
          ...(o.store !== undefined && { store_id: o.store }),
          ...(o.status !== undefined && { status: [o.status] }),
          ...(o.review && { needs_review: true }),
          ...(o.sandbox && { sandbox: true }),
          ...(o.confirmation !== undefined && { confirmation: o.confirmation }),
          ...(o.riskMin !== undefined && { risk_min: o.riskMin }),
          ...(o.sort !== undefined && { sort: o.sort }),
          limit: o.limit,
        };
        return listOrderSummaries(app, o.account === undefined ? OPERATOR : operatorAs(o.account.toLowerCase()), input);
      });
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
