import type { Command } from 'commander';
import { collect, globals, print, withApp } from './output.ts';

// Use-cases load when a command runs, so `codrail --help` starts fast (SPEC 14).
const loadProducts = () => import('../use-cases/stores/products.use-case.ts');

export function register(program: Command): void {
  const products = program.command('products').description('products and their packs');
  products
    .command('create')
    .description('create a product with its packs')
    .requiredOption('--store <id>', 'store id')
    .requiredOption('--name <name>', 'product name')
    .requiredOption('--pack <CODE:PRICE[:MIN_PRICE]>', 'a pack, e.g. 1x:89900 or 3x:219900:180000 (repeatable)', collect, [])
    .option('--sku <sku>', 'SKU, unique in the store')
    .action(async (o: { store: string; name: string; pack: string[]; sku?: string }, cmd: Command) => {
      const product = await withApp(cmd, async (app) => (await loadProducts()).createProduct(app, { store_id: o.store, name: o.name, sku: o.sku, packs: o.pack.map((await loadProducts()).parsePackSpec) }));
      print(globals(cmd), product);
    });
  products
    .command('list')
    .description('list products')
    .option('--store <id>', 'only this store')
    .action(async (o: { store?: string }, cmd: Command) => print(globals(cmd), await withApp(cmd, async (app) => (await loadProducts()).listStoreProducts(app, o.store))));

  const landings = program.command('landings').description('public landing pages (order mode 1)');
  landings
    .command('create')
    .description('create a landing page for a product')
    .requiredOption('--product <id>', 'product id')
    .requiredOption('--slug <slug>', 'URL slug, /l/<slug>')
    .option('--title <title>', 'page title (default: the product name)')
    .option('--publish', 'publish it now', false)
    .action(async (o: { product: string; slug: string; title?: string; publish: boolean }, cmd: Command) => {
      const landing = await withApp(cmd, async (app) => (await loadProducts()).createLanding(app, { product_id: o.product, slug: o.slug, title: o.title, publish: o.publish }));
      print(globals(cmd), { id: landing.id, slug: landing.slug, url: landing.url, published: landing.published, product_id: landing.product_id, store_id: landing.store_id });
    });
  landings
    .command('list')
    .description('list landing pages')
    .option('--store <id>', 'only this store')
    .action(async (o: { store?: string }, cmd: Command) => print(globals(cmd), await withApp(cmd, async (app) => (await loadProducts()).listStoreLandings(app, o.store))));
}
