// OAUTH.md T12 (MCP 2025-11-25 "Token Passthrough"): the access token a client presents to
// /api/mcp never travels further. An order created through the MCP tool with an OAuth token reaches
// the fulfillment platform with the platform's own credential, and the platform never sees ours.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { startServer, type TestServer } from '../helpers/server.ts';
import { seedShop } from '../helpers/fixtures.ts';
import { addUser, obtainTokens } from '../helpers/oauth.ts';
import { startSimulator, type Simulator } from '../../src/platforms/generic/simulator.ts';
import { startPushWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import type { OutboxWorker } from '../../src/fulfillment/worker.ts';
import { buyer, call, connect } from './mcp-kit.ts';

let sim: Simulator;
let proxy: ReturnType<typeof createServer>;
let server: TestServer;
let worker: OutboxWorker | undefined;
const seen: string[] = [];

before(async () => {
  sim = await startSimulator({ port: 0, token: 'platform-token' });
  // A recording hop in front of the simulator: every Authorization header the platform receives.
  proxy = createServer((req: IncomingMessage, res) => {
    seen.push(req.headers.authorization ?? '');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const answer = await fetch(sim.url + req.url, { method: req.method, headers: req.headers as Record<string, string>, body: req.method === 'GET' ? undefined : Buffer.concat(chunks) });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  const port = (proxy.address() as { port: number }).port;
  server = await startServer({ fulfillmentUrl: `http://127.0.0.1:${port}`, fulfillmentBackoffMs: 10 }, { env: { CODRAIL_FULFILLMENT_TOKEN: 'platform-token' } });
});
after(async () => {
  await worker?.stop();
  await server.close();
  await new Promise((ok) => proxy.close(ok));
  await sim.close();
});

test('an order created with an OAuth token is pushed with the platform token, never with the caller token', async () => {
  const shop = await seedShop(server.deps);
  const user = await addUser(server.deps, shop.accountId);
  const { tokens } = await obtainTokens(server.url, user, { grant: ['orders:create'] });
  const client = await connect(server.url, tokens.access_token);
  const created = await call(client, 'create_order', { store_id: shop.storeId, product_id: shop.productId, buyer: buyer(), idempotency_key: 'downstream-1' });
  assert.equal(created.isError, false, JSON.stringify(created.value));
  await client.close();

  worker = startPushWorker(server.deps);
  const end = Date.now() + 20_000;
  while (sim.orders().length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  assert.equal(sim.orders().length, 1);
  assert.ok(seen.length > 0);
  assert.ok(seen.every((h) => h === 'Bearer platform-token'), seen.join(', '));
  assert.ok(!seen.some((h) => h.includes(tokens.access_token.slice(10, 40))));
});
