// POST /api/orders/create with a city or region named like a member of Object.prototype (issue 19
// §5): the city matcher reads such words as unknown places, so the order is taken (for review when
// the city is unknown) or refused cleanly, never a 500. The tokenizer's own test is in
// test/domain/cities.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../../helpers/server.ts';
import { openShop, orderBody, postOrder, type Shop } from '../../helpers/fixtures.ts';
import { OPEN_LIMITS, expectError, liveHeaders, nextPhone, orderRow, storesNothing } from './order-kit.ts';

let server: TestServer;
let shop: Shop;

before(async () => ({ server, shop } = await openShop(OPEN_LIMITS)));
after(() => server.close());

const WORDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty valueOf'];

test('an order whose ciudad or departamento is such a word is stored as sent, or refused with a 400, never a 500', async () => {
  const from = server.logs.length;
  for (const word of WORDS) {
    for (const over of [{ ciudad: word }, { departamento: word }, { departamento: word, ciudad: word }]) {
      const label = JSON.stringify(over);
      const send = () => postOrder(server.url, orderBody(shop, { telefono: nextPhone(), ...over }), liveHeaders(shop));
      const res = await send();
      assert.ok(res.status === 200 || res.status === 400, `${label}: ${res.status}`);
      if (res.status === 400) {
        await storesNothing(server.deps, async () => expectError(await send(), 400));
        continue;
      }
      const body = (await res.json()) as { data: { id: string; needs_review: boolean } };
      const row = await orderRow(server.deps, body.data.id);
      if ('ciudad' in over) {
        // An unknown city waits for a person, with the buyer's words kept as sent.
        assert.equal(body.data.needs_review, true, label);
        for (const [field, value] of Object.entries(over)) assert.equal(row[field as 'ciudad' | 'departamento'], value, `${label}: ${field} kept as sent`);
      } else {
        // Medellín beside an unknown region is still Medellín, Antioquia.
        assert.deepEqual([row.ciudad, row.departamento], ['Medellín', 'Antioquia'], label);
      }
    }
  }
  assert.deepEqual(server.logs.slice(from).filter((l) => (l.level as number) >= 50), [], 'no error was logged');
});
