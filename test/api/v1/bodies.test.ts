// /api/v1 action routes (publish, archive, revoke) take no input but the id: clients that send no
// body, an empty JSON body with its content type, or `{}` all reach the operation; a body the route
// cannot read is refused before the operation, which then changes nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { addLanding, openShop, type Shop } from '../../helpers/fixtures.ts';
import { rows, storesNothing } from './v1-kit.ts';
import type { TestServer } from '../../helpers/server.ts';

let server: TestServer;
let shop: Shop;
before(async () => ({ server, shop } = await openShop()));
after(() => server.close());

const action = (path: string, init: RequestInit) =>
  fetch(`${server.url}/api/v1${path}`, { method: 'POST', ...init, headers: { authorization: `Bearer ${shop.secretKey}`, ...(init.headers as Record<string, string>) } });

test('an action POST answers 200 with no body, with an empty body and a JSON content type, and with {}', async () => {
  const path = `/landing-pages/${shop.landingId}/unpublish`;
  for (const init of [{}, { headers: { 'content-type': 'application/json' }, body: '' }, { headers: { 'content-type': 'application/json' }, body: '{}' }]) {
    const res = await action(path, init);
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(((await res.json()) as { data: { published: boolean } }).data.published, false);
  }
});

test('publishing with a body that is not JSON is a 400 and with another content type a 415, and the page stays unpublished and offline', async () => {
  const slug = `bodies-${shop.landingId.slice(-8)}`;
  const page = await addLanding(server.deps, { product_id: shop.productId, slug });
  const path = `/landing-pages/${page.id}/publish`;
  const published = async () => (await rows<{ published: number }>(server.deps, 'select published from landing_pages where id = ?', page.id))[0]?.published;
  assert.equal(await published(), 0);
  for (const [init, status] of [
    [{ headers: { 'content-type': 'application/json' }, body: '{' }, 400],
    [{ headers: { 'content-type': 'text/plain' }, body: 'x' }, 415],
  ] as const) {
    const res = await storesNothing(server.deps, () => action(path, init));
    const text = await res.text();
    assert.equal(res.status, status, text);
    const body = JSON.parse(text) as { success: boolean; error: string };
    assert.equal(body.success, false);
    assert.ok(body.error.length > 0);
    assert.equal(await published(), 0);
    assert.equal((await fetch(`${server.url}/l/${slug}`)).status, 404, 'the page is still offline');
  }
  // The same request with a body the route takes publishes it: the refusals above were about the body.
  const res = await action(path, { headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(((await res.json()) as { data: { published: boolean } }).data.published, true);
  assert.equal(await published(), 1);
  assert.equal((await fetch(`${server.url}/l/${slug}`)).status, 200);
});
