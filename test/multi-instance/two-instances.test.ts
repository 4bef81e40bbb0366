// Two real `codrail serve` processes, A and B, on ONE database (a SQLite file, or a PostgreSQL
// database in the suite's PostgreSQL run), as a deployment with two instances behind a load
// balancer runs them: what one instance writes, the other must see and respect — order numbers,
// the per-key rate limit, single-use OAuth codes, exactly-once pushes when one instance dies
// mid-push, and prices.
// Each test has its own database and its own pair of processes, so it passes when run alone.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tempDbFile } from '../helpers/server.ts';
import { spawnServe, type ServeProcess } from '../helpers/cli.ts';
import { readDb, withApp } from '../helpers/cli-expect.ts';
import { orderBody, postOrder, seedShop } from '../helpers/fixtures.ts';
import { Browser, addUser, authorizeUrl, pkcePair, registerLoopbackClient } from '../helpers/oauth.ts';
import { seeded, until } from '../helpers/wait.ts';
import { expectCreated, expectError, liveHeaders, nextPhone, type CreatedBody } from '../api/orders/order-kit.ts';
import type { App } from '../../src/app.ts';
import { createOrder } from '../../src/use-cases/orders/create-order.use-case.ts';
import { startSimulator } from '../../src/platforms/generic/simulator.ts';

/** The client IP limit is out of the way: every request of these tests comes from 127.0.0.1. */
const FLAGS = ['--log-level', 'warn', '--rate-ip-per-min', '1000000'];

/** SIGTERM, then SIGKILL if it is still there after 10 s: the cleanup never waits unbounded. */
async function stop(serve: ServeProcess): Promise<void> {
  if (serve.child.exitCode !== null || serve.child.signalCode !== null) return;
  serve.child.kill('SIGTERM');
  const timer = setTimeout(() => serve.child.kill('SIGKILL'), 10_000);
  await serve.exited;
  clearTimeout(timer);
}

/**
 * A new database set up through the real use-cases, then A and B started on it. The test's after()
 * stops both (whatever became of them) and drops the database.
 */
async function twoInstances<T>(t: TestContext, setup: (app: App) => Promise<T>, flagsA: string[] = FLAGS, flagsB: string[] = flagsA): Promise<{ file: string; made: T; a: ServeProcess; b: ServeProcess }> {
  const db = tempDbFile();
  const started: ServeProcess[] = [];
  t.after(async () => {
    await Promise.all(started.map(stop));
    db.cleanup();
  });
  const made = await withApp(db.file, setup);
  const [a, b] = await Promise.all([flagsA, flagsB].map(async (flags) => {
    const serve = await spawnServe(db.file, flags);
    started.push(serve);
    return serve;
  }));
  return { file: db.file, made, a: a!, b: b! };
}

test('orders posted alternately to A and B, half of them concurrently in flight, get unique gapless order numbers 1001–1040 per store and are each stored once', async (t) => {
  const { file, made: shops, a, b } = await twoInstances(t, async (app) => [await seedShop(app), await seedShop(app)]);
  const PER_STORE = 40;
  // Order i goes to A when i is even, to B when odd; the stores alternate every two orders, so each
  // store gets orders through both instances.
  const plan = Array.from({ length: PER_STORE * 2 }, (_, i) => ({ serve: i % 2 === 0 ? a : b, shop: shops[Math.floor(i / 2) % 2]! }));
  const post = async ({ serve: s, shop }: (typeof plan)[number]) => ({ storeId: shop.storeId, body: await expectCreated(await postOrder(s.base, orderBody(shop, { telefono: nextPhone() }), liveHeaders(shop))) });
  const half = plan.length / 2;
  const answers: { storeId: string; body: CreatedBody }[] = [];
  // The first half one after another, the second half all in flight at once.
  for (const step of plan.slice(0, half)) answers.push(await post(step));
  answers.push(...(await Promise.all(plan.slice(half).map(post))));

  const expected = Array.from({ length: PER_STORE }, (_, i) => 1001 + i);
  for (const shop of shops) {
    const mine = answers.filter((x) => x.storeId === shop.storeId).map((x) => x.body.data);
    assert.deepEqual(mine.map((o) => o.order_number).sort((x, y) => x - y), expected, `store ${shop.storeId}: each number of 1001–1040 answered once`);
    assert.equal(new Set(mine.map((o) => o.id)).size, PER_STORE, 'each answer is its own order');
    const stored = readDb(file, (db) => db.prepare('SELECT id, order_number FROM orders WHERE store_id = ? ORDER BY order_number').all(shop.storeId) as { id: string; order_number: number }[]);
    assert.deepEqual(
      stored,
      [...mine].sort((x, y) => x.order_number - y.order_number).map((o) => ({ id: o.id, order_number: o.order_number })),
      'the database holds exactly the answered orders, under the answered numbers',
    );
    const created = readDb(file, (db) => db.prepare("SELECT order_id, count(*) AS n FROM order_events WHERE store_id = ? AND type = 'order.created' GROUP BY order_id").all(shop.storeId) as { order_id: string; n: number }[]);
    assert.equal(created.length, PER_STORE, 'one order.created event per order');
    assert.ok(created.every((e) => Number(e.n) === 1), 'no order was created twice');
  }
});

test('the per-key rate limit holds across both: 24 orders of one key sent at once, alternately to A and B, under a limit of 10 a minute give ten orders and fourteen 429s', async (t) => {
  const LIMIT = 10;
  const flags = [...FLAGS, '--rate-key-per-min', String(LIMIT)];
  const { file, made: shop, a, b } = await twoInstances(t, (app) => seedShop(app), flags);
  const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => postOrder((i % 2 ? b : a).base, orderBody(shop, { telefono: nextPhone() }), liveHeaders(shop))));
  const created = answers.filter((r) => r.status === 200);
  const limited = answers.filter((r) => r.status === 429);
  assert.equal(created.length, LIMIT, `the key's limit is one count for both instances (${answers.map((r) => r.status).join(' ')})`);
  assert.equal(limited.length, 24 - LIMIT);
  for (const r of limited) {
    await expectError(r, 429, { error: /Too many requests/ });
    assert.ok(Number(r.headers.get('retry-after')) > 0, 'a 429 says when to come back');
  }
  const stored = readDb(file, (db) => db.prepare('SELECT count(*) AS n FROM orders WHERE store_id = ?').get(shop.storeId) as { n: number });
  assert.equal(Number(stored.n), LIMIT, 'only the orders answered 200 are stored');
});

test('one OAuth authorization code redeemed at A and at B at the same moment gives exactly one access token, an invalid_grant 400 for the other, and one token family', async (t) => {
  const { file, made: user, a, b } = await twoInstances(t, async (app) => addUser(app, (await seedShop(app)).accountId));
  // The real consent flow on A: registration, sign-in, consent, PKCE.
  const client = await registerLoopbackClient(a.base);
  const redirectUri = client.redirect_uris[0]!;
  const { verifier, challenge } = pkcePair();
  const callback = await new Browser(a.base).authorize(
    authorizeUrl(a.base, { response_type: 'code', client_id: client.client_id, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', state: 'two-instances' }),
    user,
  );
  assert.equal(callback.searchParams.get('state'), 'two-instances');
  const code = callback.searchParams.get('code');
  assert.ok(code, `a code in ${callback.href}`);

  const redeem = async (via: 'A' | 'B', base: string) => {
    const res = await fetch(`${base}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri, client_id: client.client_id }),
    });
    return { via, status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const answers = await Promise.all([redeem('A', a.base), redeem('B', b.base)]);
  assert.deepEqual(answers.map((x) => x.status).sort(), [200, 400], JSON.stringify(answers));
  const winner = answers.find((x) => x.status === 200)!;
  const loser = answers.find((x) => x.status === 400)!;
  assert.deepEqual(loser.body, { error: 'invalid_grant' }, `the redemption at ${loser.via}`);
  assert.match(winner.body.access_token as string, /^svc_oauth_/);
  assert.match(winner.body.refresh_token as string, /^svc_refresh_/);
  assert.equal(winner.body.token_type, 'Bearer');

  const families = readDb(file, (db) => db.prepare('SELECT id, revoked_reason FROM oauth_families WHERE client_id = ?').all(client.client_id) as { id: string; revoked_reason: string | null }[]);
  assert.equal(families.length, 1, 'one token family for the code');
  const familyId = families[0]!.id;
  const issued = readDb(file, (db) => ({
    access: (db.prepare('SELECT count(*) AS n FROM oauth_access_tokens WHERE family_id = ?').get(familyId) as { n: number }).n,
    refresh: (db.prepare('SELECT count(*) AS n FROM oauth_refresh_tokens WHERE family_id = ?').get(familyId) as { n: number }).n,
    codeFamily: (db.prepare('SELECT family_id FROM oauth_codes WHERE client_id = ?').all(client.client_id) as { family_id: string | null }[]).map((c) => c.family_id),
  }));
  assert.deepEqual({ access: Number(issued.access), refresh: Number(issued.refresh), codeFamily: issued.codeFamily }, { access: 1, refresh: 1, codeFamily: [familyId] });
  // As on one server (test/oauth/token.test.ts): the replay that lost revokes what the code issued
  // (RFC 9700 §2.1.1), wherever it landed, and neither instance refreshes the winner's grant.
  assert.equal(families[0]!.revoked_reason, 'code_replayed');
  for (const base of [a.base, b.base]) {
    const res = await fetch(`${base}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: winner.body.refresh_token as string, client_id: client.client_id }),
    });
    assert.equal(res.status, 400, base);
    assert.deepEqual(await res.json(), { error: 'invalid_grant' });
  }
});

/**
 * A pass-through HTTP proxy in front of the platform for A alone: it counts A's order creations in
 * flight, so the test kills A while some of its pushes are on the wire, and records how the platform
 * answered each creation and when. Requests already sent go on to the platform after A dies, as
 * they would over a real network.
 */
async function watchedRoute(target: string) {
  let inFlight = 0;
  const answered: { status: number; at: number }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('error', () => res.destroy());
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const isCreate = req.method === 'POST' && req.url === '/orders';
      if (isCreate) inFlight++;
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'accept']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name] as string;
      const body = Buffer.concat(chunks);
      fetch(`${target}${req.url}`, { method: req.method, headers, ...(body.length > 0 && { body }) })
        .then(async (upstream) => {
          const text = Buffer.from(await upstream.arrayBuffer());
          if (isCreate) answered.push({ status: upstream.status, at: performance.now() });
          if (!res.destroyed) res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json', ...(upstream.headers.get('retry-after') && { 'retry-after': upstream.headers.get('retry-after')! }) }).end(text);
        })
        .catch(() => res.destroy())
        .finally(() => isCreate && inFlight--);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** A's creation requests sent and not yet answered by the platform. */
    createsInFlight: () => inFlight,
    /** How the platform answered A's creation requests, and when (performance.now()). */
    answered: () => [...answered],
    close: () => new Promise<void>((ok) => (server.closeAllConnections(), server.close(() => ok()))),
  };
}

test('live orders pushed by A and B to a platform failing 30 % of requests, with A killed by SIGKILL mid-push, each reach the platform exactly once and every push job ends done', async (t) => {
  const ORDERS = 30;
  // The order is created, then answered 200 ms later: a kill in that gap leaves an order on the
  // platform that A never recorded.
  const sim = await startSimulator({ port: 0, failRate: 0.3, latencyMs: 200, random: seeded(20_260_516) });
  t.after(() => sim.close());
  const route = await watchedRoute(sim.url);
  t.after(() => route.close());
  const PUSH = ['--fulfillment-timeout-ms', '500', '--fulfillment-backoff-ms', '20', '--fulfillment-backoff-max-ms', '100', '--fulfillment-concurrency', '4'];
  const { file, made: ids, a, b } = await twoInstances(
    t,
    async (app) => {
      const shop = await seedShop(app);
      const made: string[] = [];
      for (let i = 0; i < ORDERS; i++) {
        const { body } = await createOrder(app, { body: orderBody(shop, { telefono: nextPhone() }), apiKey: shop.liveKey, origin: 'https://shop.example.com', ip: `198.51.100.${i}` }, {});
        made.push(body.data.id);
      }
      return made;
    },
    [...FLAGS, ...PUSH, '--fulfillment-url', route.url],
    [...FLAGS, ...PUSH, '--fulfillment-url', sim.url],
  );
  const pushJobs = () => readDb(file, (db) => db.prepare("SELECT order_id, state, remote_id, unknown_outcome FROM fulfillment_jobs WHERE action = 'push'").all() as { order_id: string; state: string; remote_id: string | null; unknown_outcome: number }[]);
  assert.equal(pushJobs().length, ORDERS, 'one push job queued per live order');

  // A has had answers to some pushes and has more on the wire: it is killed in the middle of its work.
  await until('A to be pushing, with an order creation on the wire', () => route.answered().length >= 4 && route.createsInFlight() > 0, 20_000);
  const inFlightAtKill = route.createsInFlight();
  a.child.kill('SIGKILL');
  const killedAt = performance.now();
  await a.exited;
  assert.equal(a.child.signalCode, 'SIGKILL');
  assert.ok(inFlightAtKill >= 1, `A was killed with ${inFlightAtKill} creation(s) in flight`);
  const left = pushJobs().filter((j) => j.state !== 'done').length;
  assert.ok(left > 0, `A was killed mid-push: ${left} of ${ORDERS} push jobs not done`);

  // B alone finishes, A's in-flight jobs included once their lease (3 × 500 ms + 1 s) has run out.
  await until('every push job to be done by B', () => pushJobs().every((j) => j.state === 'done'), 60_000);
  assert.equal(b.child.exitCode, null, 'B is still serving');

  const onPlatform = sim.orders();
  for (const id of ids) assert.equal(onPlatform.filter((o) => o.external_ref === id).length, 1, `order ${id} is on the platform exactly once`);
  assert.equal(onPlatform.length, ORDERS, 'no platform order other than ours');
  for (const job of pushJobs()) assert.deepEqual([job.state, Number(job.unknown_outcome), job.remote_id], ['done', 0, onPlatform.find((o) => o.external_ref === job.order_id)!.id], `push job of ${job.order_id}`);
  // Both really pushed: creations came through A's route and straight from B.
  const createRequests = [...new Map(onPlatform.map((o) => [o.external_ref, o.create_calls])).values()].reduce((x, y) => x + y, 0);
  const throughA = route.answered();
  assert.ok(createRequests > throughA.length, `creations: ${throughA.length} through A of ${createRequests} in all`);
  // Every order the platform created for A after A died was never recorded by A: B found it by
  // its reference instead of creating it again.
  const orphaned = throughA.filter((x) => x.at > killedAt && x.status === 201).length;
  const pushed = readDb(file, (db) => db.prepare("SELECT data FROM order_events WHERE type = 'fulfillment.pushed'").all() as { data: string | { reconciled?: boolean } }[]);
  const reconciled = pushed.filter((e) => (typeof e.data === 'string' ? (JSON.parse(e.data) as { reconciled?: boolean }) : e.data).reconciled).length;
  assert.equal(pushed.length, ORDERS, 'one fulfillment.pushed event per order');
  assert.ok(reconciled >= orphaned, `${orphaned} platform order(s) created for A after its death, ${reconciled} push(es) found by reference`);
  t.diagnostic(`A killed with ${inFlightAtKill} creation(s) on its route (${orphaned} created by the platform after A died) and ${left} job(s) not done; ${createRequests} creation requests, ${throughA.length} of them A's; ${reconciled} push(es) found by reference instead of created again`);
});

test('a pack price changed through A is charged by B within a second: the old price is refused on B and the new one is created', async (t) => {
  // max_discount 0: the floor is the list price, so the old price is refused only because it changed.
  const { file, made: shop, a, b } = await twoInstances(t, (app) => seedShop(app, { maxDiscount: 0 }));
  const OLD = 100000;
  const NEW = 120000;
  const order = (price: number) => postOrder(b.base, orderBody(shop, { telefono: nextPhone(), unit_price: price, total_price: price }), liveHeaders(shop));
  const storedOrders = () => Number(readDb(file, (db) => (db.prepare('SELECT count(*) AS n FROM orders WHERE store_id = ?').get(shop.storeId) as { n: number }).n));
  // Both instances have charged the old price: whatever they keep of the product is warm.
  await expectCreated(await postOrder(a.base, orderBody(shop, { telefono: nextPhone() }), liveHeaders(shop)));
  const warm = await expectCreated(await order(OLD));
  assert.equal(warm.data.total_price, OLD);
  const before = storedOrders();

  const changed = await fetch(`${a.base}/api/v1/pack-prices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${shop.secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ updates: [{ product_id: shop.productId, quantity: 1, price: NEW }] }),
  });
  assert.equal(changed.status, 200, await changed.clone().text());
  const pack = ((await changed.json()) as { data: { products: { id: string; packs: { code: string; price: number }[] }[] } }).data.products[0]!.packs.find((p) => p.code === '1x');
  assert.equal(pack?.price, NEW, 'A answers the new price');
  const changedAt = performance.now();

  // B is asked with the old price until it refuses, for at most a second.
  const staleAccepted: string[] = [];
  let refusedAfter: number | undefined;
  while (performance.now() - changedAt <= 1_000) {
    const sentAfter = performance.now() - changedAt;
    const res = await order(OLD);
    if (res.status === 200) {
      staleAccepted.push((await expectCreated(res)).data.id);
      await new Promise((r) => setTimeout(r, 25));
      continue;
    }
    await expectError(res, 400, { fields: ['total_price'] });
    refusedAfter = sentAfter;
    break;
  }
  assert.ok(refusedAfter !== undefined, `B still charged the old price ${OLD} one second after A changed it (${staleAccepted.length} order(s) accepted at it)`);
  assert.equal(storedOrders(), before + staleAccepted.length, 'the refused order stored nothing');

  const fresh = await expectCreated(await order(NEW));
  assert.equal(fresh.data.total_price, NEW);
  const row = readDb(file, (db) => db.prepare('SELECT total_price_minor FROM orders WHERE id = ?').get(fresh.data.id) as { total_price_minor: number } | undefined);
  assert.equal(Number(row?.total_price_minor), NEW * 100, 'stored at the new price');
  t.diagnostic(`B refused the old price in a request sent ${Math.round(refusedAfter)} ms after A answered the change; it accepted the old price ${staleAccepted.length} time(s) before that`);
});
