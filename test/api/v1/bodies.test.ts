// /api/v1 action routes (publish, archive, revoke) take no input but the id: clients that send no
// body, an empty JSON body with its content type, or `{}` all reach the operation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openShop, type Shop } from '../../helpers/fixtures.ts';
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

test('an action POST with a body that is not JSON is a 400 and one with another content type a 415', async () => {
  const path = `/landing-pages/${shop.landingId}/publish`;
  assert.equal((await action(path, { headers: { 'content-type': 'application/json' }, body: '{' })).status, 400);
  assert.equal((await action(path, { headers: { 'content-type': 'text/plain' }, body: 'x' })).status, 415);
});
