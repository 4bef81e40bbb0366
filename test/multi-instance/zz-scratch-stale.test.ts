import { test } from 'node:test';
import { tempDbFile } from '../helpers/server.ts';
import { spawnServe } from '../helpers/cli.ts';
import { withApp } from '../helpers/cli-expect.ts';
import { orderBody, postOrder, seedShop } from '../helpers/fixtures.ts';
import { liveHeaders, nextPhone } from '../api/orders/order-kit.ts';

test('stale', async (t) => {
  const db = tempDbFile();
  const shop = await withApp(db.file, (app) => seedShop(app, { maxDiscount: 0 }));
  const flags = ['--log-level', 'warn', '--rate-ip-per-min', '1000000', '--rate-key-per-min', '1000000', '--rate-phone-per-hour', '1000000'];
  const [a, b] = await Promise.all([spawnServe(db.file, flags), spawnServe(db.file, flags)]);
  let stale = 0; let n = 0; const staleDelays: number[] = [];
  let price = 100000;
  for (let i = 0; i < Number(process.env.N ?? 60); i++) {
    const old = price; price = price === 100000 ? 120000 : 100000;
    // warm B at the current price
    await postOrder(b.base, orderBody(shop, { telefono: nextPhone(), unit_price: old, total_price: old }), liveHeaders(shop));
    if (process.env.IDLE) await new Promise((r) => setTimeout(r, Number(process.env.IDLE)));
    const r = await fetch(`${a.base}/api/v1/pack-prices`, { method: 'POST', headers: { authorization: `Bearer ${shop.secretKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ updates: [{ product_id: shop.productId, quantity: 1, price }] }) });
    if (r.status !== 200) throw new Error(await r.text());
    // price going up: old price must be refused (only meaningful when old < price)
    if (old < price) {
      n++;
      const res = await postOrder(b.base, orderBody(shop, { telefono: nextPhone(), unit_price: old, total_price: old }), liveHeaders(shop));
      await res.text();
      if (res.status === 200) stale++;
    }
  }
  t.diagnostic(`stale ${stale} of ${n}`);
  a.child.kill('SIGTERM'); b.child.kill('SIGTERM'); await a.exited; await b.exited; db.cleanup();
});
