// Real seams for the outbound webhook tests (issue 21): the server in-process on port 0 with its
// webhook worker, endpoints added through /api/v1 with the shop's secret key, orders through the
// public order API, real receivers on 127.0.0.1, and what the database holds (events, deliveries).
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Deps } from '../../src/app.ts';
import type { Clock } from '../../src/clock.ts';
import type { ConfigFlags } from '../../src/config.ts';
import { verifyEvent } from '../../src/domain/webhook-signature.ts';
import { WEBHOOK_SIGNATURE_TOLERANCE_S } from '../../src/limits.ts';
import { startWebhookWorker } from '../../src/use-cases/fulfillment/push-worker.use-case.ts';
import { orderBody, postOrder, seedShop, type Shop } from '../helpers/fixtures.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import type { Arrival } from '../helpers/webhook-receiver.ts';
import { seeded, until } from '../helpers/wait.ts';
import { OPEN_LIMITS, liveHeaders, nextPhone } from '../api/orders/order-kit.ts';
import { V1Client, ok } from '../api/v1/v1-kit.ts';

/** The operator's development switch: endpoints on 127.0.0.1 over http. */
export const ALLOW_PRIVATE = { CODRAIL_WEBHOOKS_ALLOW_PRIVATE: '1' } as const;

export interface Bench {
  server: TestServer;
  shop: Shop;
  v1: V1Client;
  /** The webhook worker, when the bench started one. */
  worker: ReturnType<typeof startWebhookWorker> | undefined;
  close(): Promise<void>;
}

/**
 * A server (rate limits lifted) with one shop and an account API client on its secret key; the
 * webhook worker running unless `worker: false`; private receivers allowed unless `allowPrivate: false`.
 */
export async function openBench(options: { flags?: ConfigFlags; clock?: Clock; allowPrivate?: boolean; worker?: boolean; env?: Record<string, string> } = {}): Promise<Bench> {
  const env = { ...(options.allowPrivate === false ? {} : ALLOW_PRIVATE), ...options.env };
  const server = await startServer({ ...OPEN_LIMITS, ...options.flags }, { env, ...(options.clock ? { clock: options.clock } : {}) });
  const shop = await seedShop(server.deps);
  const v1 = await V1Client.open(server, shop.secretKey);
  const worker = options.worker === false ? undefined : startWebhookWorker(server.deps);
  return {
    server,
    shop,
    v1,
    worker,
    async close() {
      await worker?.stop();
      await server.close();
    },
  };
}

/** POST /api/v1/webhook-endpoints; answers the endpoint with its secret (shown this once). */
export async function addEndpoint(v1: V1Client, storeId: string, url: string, eventTypes?: string[]): Promise<{ id: string; secret: string; [k: string]: any }> {
  const data = ok(await v1.post('/api/v1/webhook-endpoints', { body: { store_id: storeId, url, ...(eventTypes && { event_types: eventTypes }) } }), 201);
  assert.match(data.secret, /^whsec_/);
  return data;
}

/** A live order through the public order API (publishable key, allowed origin); its id. */
export async function liveOrder(server: TestServer, shop: Shop, over: Record<string, unknown> = {}, key = shop.liveKey): Promise<string> {
  const res = await postOrder(server.url, orderBody(shop, { telefono: nextPhone(), ...over }), liveHeaders({ liveKey: key }));
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return (JSON.parse(text) as { data: { id: string } }).data.id;
}

/** A sandbox order (the store's test publishable key). */
export const sandboxOrder = (server: TestServer, shop: Shop, over: Record<string, unknown> = {}) => liveOrder(server, shop, over, shop.testKey);

export interface StoredEvent {
  seq: number;
  id: string;
  store_id: string;
  order_id: string | null;
  type: string;
  livemode: number;
  body: string;
  created_at: string;
}

export const storedEvents = async (deps: Pick<Deps, 'db'>): Promise<StoredEvent[]> => (await sql<StoredEvent>`select * from webhook_events order by seq`.execute(deps.db)).rows;

export interface StoredDelivery {
  id: string;
  event_id: string;
  event_seq: number;
  endpoint_id: string;
  state: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
}

export const storedDeliveries = async (deps: Pick<Deps, 'db'>, endpointId?: string): Promise<StoredDelivery[]> =>
  (
    await (endpointId === undefined
      ? sql<StoredDelivery>`select * from webhook_deliveries order by event_seq, created_at`
      : sql<StoredDelivery>`select * from webhook_deliveries where endpoint_id = ${endpointId} order by event_seq, created_at`
    ).execute(deps.db)
  ).rows;

/** Events without a delivered delivery (to any endpoint): none once every event reached a receiver. */
export const undelivered = async (deps: Pick<Deps, 'db'>): Promise<string[]> =>
  (await sql<{ id: string }>`select id from webhook_events e where not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.state = 'delivered')`.execute(deps.db)).rows.map((r) => r.id);

/** What a receiver does with an arrival: Codrail-Signature checked with this secret at the time it arrived. */
export const verifies = (secret: string, a: Pick<Arrival, 'body' | 'signature' | 'at'>, nowSeconds = Math.floor(a.at / 1000)) => verifyEvent(secret, a.body, a.signature, nowSeconds, WEBHOOK_SIGNATURE_TOLERANCE_S);

/** The v1 signatures a Codrail-Signature header carries. */
export const v1s = (header: string) => header.split(',').filter((p) => p.startsWith('v1=')).length;

/**
 * A seeded draw per key: the same key always draws the same number, whatever order the requests
 * arrive in (concurrent deliveries arrive in no fixed order; their keys do not change).
 */
export function keyedDraw(seed: number): (key: string) => number {
  return (key) => {
    let h = 0x811c9dc5 ^ seed;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    return seeded(h)();
  };
}

/** Arrivals grouped by event id, each group in arrival order. */
export function byEvent(arrivals: readonly Arrival[]): Map<string, Arrival[]> {
  const out = new Map<string, Arrival[]>();
  for (const a of arrivals) out.set(a.eventId, [...(out.get(a.eventId) ?? []), a]);
  return out;
}

/** The call centre confirms an order (POST /api/v1/orders/:id/status). */
export async function confirmOrder(v1: V1Client, orderId: string): Promise<void> {
  ok(await v1.post('/api/v1/orders/{order_id}/status', { params: { order_id: orderId }, body: { status: 'confirmed' } }));
}

/** The order is cancelled (POST /api/v1/orders/:id/cancel). */
export async function cancelOrder(v1: V1Client, orderId: string, reason = 'buyer_declined'): Promise<void> {
  ok(await v1.post('/api/v1/orders/{order_id}/cancel', { params: { order_id: orderId }, body: { reason } }));
}

/** `until`, typed for a probe that answers nothing (undefined, false) until it finds what it waits for. */
export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs?: number): Promise<T> {
  return (await until(what, probe, timeoutMs)) as T;
}
