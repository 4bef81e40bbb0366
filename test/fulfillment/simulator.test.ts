import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/platforms/generic/simulator.ts';
import { platformOrderBody } from '../helpers/platform.ts';
import { until } from '../helpers/wait.ts';

const TOKEN = 'sim-token';
const AUTH = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** The contract body; overrides may break it on purpose (the simulator's validation is under test). */
const orderBody = (ref: string, overrides: Record<string, unknown> = {}): Record<string, unknown> => ({ ...platformOrderBody(ref, { notes: null }), ...overrides });

async function withSim(options: SimulatorOptions, run: (sim: Simulator) => Promise<void>): Promise<void> {
  const sim = await startSimulator({ token: TOKEN, ...options });
  try {
    await run(sim);
  } finally {
    await sim.close();
  }
}

const create = (sim: Simulator, body: unknown, init: RequestInit = {}) =>
  fetch(`${sim.url}/orders`, { method: 'POST', headers: AUTH, body: typeof body === 'string' ? body : JSON.stringify(body), ...init });
const get = (sim: Simulator, path: string) => fetch(`${sim.url}${path}`, { headers: AUTH });

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver that answers the given statuses in turn (then 200) and records every delivery. */
async function receiver(statuses: number[] = []) {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statuses.shift() ?? 200).end();
      waiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/fulfillment/webhook`;
  const until = async (n: number) => {
    while (received.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  const close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return { url, received, until, close };
}

function verifySignature(secret: string, header: string | undefined, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex')) && Math.abs(Date.now() / 1000 - Number(match[1])) < 300;
}

test('the simulator creates an order, then finds it by external reference, by id and in its control listing', async () => {
  await withSim({}, async (sim) => {
    const res = await create(sim, orderBody('ref-1'));
    assert.equal(res.status, 201);
    const created = (await res.json()) as { id: string; external_ref: string; status: string; created_at: string };
    assert.match(created.id, /^P-\d{6}$/);
    assert.equal(created.external_ref, 'ref-1');
    assert.equal(created.status, 'PENDIENTE');
    assert.ok(!Number.isNaN(Date.parse(created.created_at)));

    const lookup = await get(sim, '/orders?external_ref=ref-1');
    assert.equal(lookup.status, 200);
    const { orders } = (await lookup.json()) as { orders: { id: string; status: string; updated_at: string }[] };
    assert.deepEqual(
      orders.map((o) => [o.id, o.status]),
      [[created.id, 'PENDIENTE']],
    );
    assert.deepEqual(await (await get(sim, '/orders?external_ref=other')).json(), { orders: [] });

    const one = await get(sim, `/orders/${created.id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(await one.json(), { id: created.id, external_ref: 'ref-1', status: 'PENDIENTE', tracking_number: null, created_at: created.created_at, updated_at: created.created_at });
    const missing = await get(sim, '/orders/P-999999');
    assert.equal(missing.status, 404);
    assert.ok(((await missing.json()) as { error: string }).error);

    const listing = (await (await fetch(`${sim.url}/_sim/orders`)).json()) as Record<string, unknown>[];
    // The control listing names the credential by hash and last four characters, never the token.
    const credential = { hash: createHash('sha256').update(TOKEN).digest('hex').slice(0, 16), last4: TOKEN.slice(-4) };
    assert.deepEqual(listing, [
      { id: created.id, external_ref: 'ref-1', status: 'PENDIENTE', credential, tracking_number: null, cancellation: null, create_calls: 1, created_at: created.created_at, updated_at: created.created_at },
    ]);
    assert.ok(!JSON.stringify(listing).includes(TOKEN));
    assert.equal(sim.orders()[0]?.create_calls, 1);
    assert.equal((sim.orders()[0]?.request as { city: string }).city, 'Medellín');
  });
});

test('the simulator, like the real platforms, makes a second order for a repeated external reference', async () => {
  await withSim({}, async (sim) => {
    assert.equal((await create(sim, orderBody('dup'))).status, 201);
    assert.equal((await create(sim, orderBody('dup'))).status, 201);
    const orders = sim.orders();
    assert.deepEqual(
      orders.map((o) => [o.id, o.external_ref, o.create_calls]),
      [
        ['P-000001', 'dup', 2],
        ['P-000002', 'dup', 2],
      ],
    );
    const { orders: found } = (await (await get(sim, '/orders?external_ref=dup')).json()) as { orders: unknown[] };
    assert.equal(found.length, 2);
  });
});

test('the simulator refuses platform calls without the bearer token or with a wrong one, but not its control plane', async () => {
  await withSim({}, async (sim) => {
    const none = await fetch(`${sim.url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(orderBody('t')) });
    assert.equal(none.status, 401);
    assert.ok(((await none.json()) as { error: string }).error);
    const wrong = await fetch(`${sim.url}/orders?external_ref=t`, { headers: { authorization: 'Bearer nope' } });
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
    assert.deepEqual(sim.orders(), []);
    const control = await fetch(`${sim.url}/_sim/orders`);
    assert.equal(control.status, 200);
    assert.deepEqual(await control.json(), []);
  });
});

test('the simulator accepts any token when none is configured', async () => {
  const sim = await startSimulator({});
  try {
    const res = await fetch(`${sim.url}/orders`, { method: 'POST', body: JSON.stringify(orderBody('open')) });
    assert.equal(res.status, 201);
    await res.body?.cancel();
  } finally {
    await sim.close();
  }
});

test('the simulator answers 400 with an error for a body that breaks the contract and creates nothing', async () => {
  await withSim({}, async (sim) => {
    const bad = [
      '{not json',
      JSON.stringify([]),
      JSON.stringify(orderBody('b', { products: [] })),
      JSON.stringify(orderBody('b', { total_to_collect: -1 })),
      JSON.stringify(orderBody('b', { total_to_collect: '159900' })),
      JSON.stringify({ ...orderBody('b'), phone: undefined }),
      JSON.stringify(orderBody('')),
    ];
    for (const body of bad) {
      const res = await create(sim, body);
      assert.equal(res.status, 400, body);
      const error = ((await res.json()) as { error: unknown }).error;
      assert.equal(typeof error, 'string', body);
    }
    assert.deepEqual(sim.orders(), []);
    const noRef = await get(sim, '/orders');
    assert.equal(noRef.status, 400);
    await noRef.body?.cancel();
  });
});

test('the simulator accepts a body with only the required fields', async () => {
  await withSim({}, async (sim) => {
    const { surname: _s, city_code: _c, neighborhood: _n, notes: _o, rate_type: _r, ...minimal } = orderBody('min');
    const res = await create(sim, minimal);
    assert.equal(res.status, 201);
    await res.body?.cancel();
  });
});

test('the simulator with failRate 1 answers 500 and creates no order', async () => {
  await withSim({ failRate: 1 }, async (sim) => {
    const res = await create(sim, orderBody('f'));
    assert.equal(res.status, 500);
    assert.ok(((await res.json()) as { error: string }).error);
    assert.deepEqual(sim.orders(), []);
    assert.deepEqual(await (await fetch(`${sim.url}/_sim/orders`)).json(), []);
  });
});

test('the simulator draws failures from the injected random source', async () => {
  const draws = [0.9, 0.1];
  await withSim({ failRate: 0.5, random: () => draws.shift() ?? 0 }, async (sim) => {
    const first = await create(sim, orderBody('r'));
    const second = await create(sim, orderBody('r'));
    assert.deepEqual([first.status, second.status], [201, 500]);
    await Promise.all([first.body?.cancel(), second.body?.cancel()]);
    assert.deepEqual(
      sim.orders().map((o) => [o.id, o.create_calls]),
      [['P-000001', 2]],
    );
  });
});

test('the simulator with timeoutRate 1 keeps the order although the client gave up waiting for the answer', async () => {
  await withSim({ timeoutRate: 1, lateMs: 1000 }, async (sim) => {
    await assert.rejects(create(sim, orderBody('late'), { signal: AbortSignal.timeout(200) }), { name: 'TimeoutError' });
    assert.deepEqual(
      sim.orders().map((o) => [o.external_ref, o.status, o.create_calls]),
      [['late', 'PENDIENTE', 1]],
    );
    const { orders } = (await (await get(sim, '/orders?external_ref=late')).json()) as { orders: { id: string }[] };
    assert.equal(orders.length, 1);
  });
});

// The late answer would come in 24 days: close() resolving at all is what proves it did not wait for
// it (the test's timeout only stops a run where it does).
test('the simulator closes without waiting for a late answer still pending, and that request fails', { timeout: 30_000 }, async () => {
  const sim = await startSimulator({ timeoutRate: 1, lateMs: 2 ** 31 - 1 });
  const pending = fetch(`${sim.url}/orders`, { method: 'POST', body: JSON.stringify(orderBody('held')) });
  await until('the order to be held', () => sim.orders().length === 1);
  await sim.close();
  await assert.rejects(pending);
  assert.deepEqual(sim.orders().map((o) => o.external_ref), ['held']);
});

test('the simulator with rateLimit 2 answers a burst beyond two requests with 429 and Retry-After 1', async () => {
  await withSim({ rateLimit: 2 }, async (sim) => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => get(sim, '/orders?external_ref=x')));
    const statuses = answers.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 200, 429, 429, 429]);
    for (const res of answers) {
      if (res.status === 429) assert.equal(res.headers.get('retry-after'), '1');
      await res.body?.cancel();
    }
    const control = await fetch(`${sim.url}/_sim/orders`);
    assert.equal(control.status, 200);
    await control.body?.cancel();
  });
});

test('the simulator signs the status webhook with HMAC-SHA256 over "<t>.<body>" when advanced in code', async () => {
  const hook = await receiver();
  try {
    await withSim({ webhookUrl: hook.url, webhookSecret: 'whsec' }, async (sim) => {
      const { id } = (await (await create(sim, orderBody('w'))).json()) as { id: string };
      await sim.advance(id, 'EN_TRANSITO');
      assert.equal(hook.received.length, 1);
      const [delivery] = hook.received;
      assert.equal(delivery!.headers['content-type'], 'application/json');
      assert.ok(verifySignature('whsec', delivery!.headers['x-codrail-signature'] as string, delivery!.body));
      assert.ok(!verifySignature('other-secret', delivery!.headers['x-codrail-signature'] as string, delivery!.body));
      const event = JSON.parse(delivery!.body) as Record<string, string>;
      assert.match(event.event_id!, /^evt_/);
      assert.deepEqual({ ...event, event_id: undefined }, { event_id: undefined, order_id: id, external_ref: 'w', status: 'EN_TRANSITO', tracking_number: null, occurred_at: sim.orders()[0]!.updated_at });
      assert.equal(sim.orders()[0]!.status, 'EN_TRANSITO');
      await assert.rejects(sim.advance(id, 'VOLANDO'), /status must be one of/);
      await assert.rejects(sim.advance('P-404404', 'ENTREGADO'), /unknown order/);
    });
  } finally {
    await hook.close();
  }
});

test('the simulator changes a status through its control endpoint and retries the webhook after a failed delivery', async () => {
  const hook = await receiver([500]);
  try {
    await withSim({ webhookUrl: hook.url, webhookSecret: 'whsec' }, async (sim) => {
      const { id } = (await (await create(sim, orderBody('c'))).json()) as { id: string };
      const res = await fetch(`${sim.url}/_sim/orders/${id}/status`, { method: 'POST', body: JSON.stringify({ status: 'ENTREGADO' }) });
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as { status: string }).status, 'ENTREGADO');
      await hook.until(2);
      const [first, second] = hook.received.map((r) => JSON.parse(r.body) as { event_id: string; status: string });
      assert.equal(first!.event_id, second!.event_id);
      assert.equal(second!.status, 'ENTREGADO');
      assert.ok(verifySignature('whsec', hook.received[1]!.headers['x-codrail-signature'] as string, hook.received[1]!.body));
      const read = (await (await get(sim, `/orders/${id}`)).json()) as { status: string };
      assert.equal(read.status, 'ENTREGADO');

      const unknown = await fetch(`${sim.url}/_sim/orders/${id}/status`, { method: 'POST', body: JSON.stringify({ status: 'LOST' }) });
      assert.equal(unknown.status, 400);
      await unknown.body?.cancel();
      const missing = await fetch(`${sim.url}/_sim/orders/P-000999/status`, { method: 'POST', body: JSON.stringify({ status: 'ENTREGADO' }) });
      assert.equal(missing.status, 404);
      await missing.body?.cancel();
    });
  } finally {
    await hook.close();
  }
});

test('the simulator survives an unreachable webhook receiver', async () => {
  const hook = await receiver();
  await hook.close();
  await withSim({ webhookUrl: hook.url, webhookSecret: 'whsec' }, async (sim) => {
    const { id } = (await (await create(sim, orderBody('u'))).json()) as { id: string };
    await sim.advance(id, 'GUIA_GENERADA');
    assert.equal(sim.orders()[0]!.status, 'GUIA_GENERADA');
    assert.equal((await get(sim, `/orders/${id}`)).status, 200);
  });
});

test('the simulator refuses a webhook URL without a secret and rates outside 0..1', async () => {
  await assert.rejects(startSimulator({ webhookUrl: 'http://127.0.0.1:1/hook' }), /webhookSecret/);
  await assert.rejects(startSimulator({ failRate: 2 }), RangeError);
});
