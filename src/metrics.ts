// Numbers an operator watches (issue 14 §3), in Prometheus text format with prom-client: requests by
// route and status with latency, orders created and refused by reason, pushes by state with the age
// of the oldest pending one, WhatsApp messages by state, and SQLite busy errors. Counters move as
// things happen; the outbox gauges are read from the database when scraped. One registry per app
// (no global default registry), so tests and several apps in one process keep their own numbers.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from './db/connect.ts';
import { countJobsByState, pushBacklog } from './db/queries/fulfillment.queries.ts';
import { countMessagesByStatus } from './db/queries/whatsapp.queries.ts';
import type { Clock } from './clock.ts';
import { countConfirmations, type OrderRow } from './db/queries/orders.queries.ts';
import { BUYER_ACTOR } from './domain/confirmation.ts';
import { riskBand } from './domain/return-risk.ts';
import type { OrderEvent } from './order-events/order-events.ts';

export class Metrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #latency: Histogram<'method' | 'route'>;
  readonly #orders: Counter<'mode'>;
  readonly #refused: Counter<'reason'>;
  readonly #busy: Counter;
  readonly #events: Counter<'type'>;
  readonly #toConfirm: Histogram;
  readonly #outcomes: Counter<'risk_band' | 'outcome'>;

  constructor(db: Db, clock: Clock) {
    const registers = [this.registry];
    this.#requests = new Counter({ name: 'codrail_http_requests_total', help: 'HTTP requests answered, by route pattern, method and status.', labelNames: ['method', 'route', 'status'], registers });
    this.#latency = new Histogram({
      name: 'codrail_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern and method.',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.#orders = new Counter({ name: 'codrail_orders_created_total', help: 'Orders created (new ones, not idempotent replays), by mode: landing, key, account.', labelNames: ['mode'], registers });
    this.#refused = new Counter({ name: 'codrail_orders_refused_total', help: 'Order requests refused, by reason (the error code: invalid_input, price_below_floor, rate_limited, order_rejected…).', labelNames: ['reason'], registers });
    this.#events = new Counter({ name: 'codrail_order_events_total', help: 'Order events recorded (committed), by type: order.created, order.status_changed, fulfillment.pushed, whatsapp.sent…', labelNames: ['type'], registers });
    // Issue 25: what a seller watches about confirmation and return risk.
    this.#toConfirm = new Histogram({
      name: 'codrail_buyer_confirmation_seconds',
      help: "Time from the WhatsApp confirmation request to the buyer's own confirmation.",
      buckets: [30, 60, 300, 900, 1800, 3600, 7200, 14_400, 43_200, 86_400],
      registers,
    });
    this.#outcomes = new Counter({ name: 'codrail_order_outcomes_total', help: 'Live orders delivered or returned (refused at the door), by the return-risk band they had (low, medium, high).', labelNames: ['risk_band', 'outcome'], registers });
    new Gauge({
      name: 'codrail_confirmations',
      help: "Orders whose buyer's confirmation is open, by state: asked, reminded, call (the call queue), replied, correcting.",
      labelNames: ['state'],
      registers,
      async collect() {
        this.reset();
        for (const row of await countConfirmations(db)) this.set({ state: String(row.confirmation) }, Number(row.n));
      },
    });
    this.#busy = new Counter({ name: 'codrail_sqlite_busy_total', help: 'Requests or jobs that failed because SQLite stayed busy past its 5 s timeout.', registers });
    new Gauge({
      name: 'codrail_fulfillment_jobs',
      help: 'Fulfillment outbox jobs (pushes and cancellations) by state.',
      labelNames: ['state'],
      registers,
      async collect() {
        this.reset();
        for (const row of await countJobsByState(db)) this.set({ state: row.state }, Number(row.n));
      },
    });
    new Gauge({
      name: 'codrail_fulfillment_oldest_pending_push_seconds',
      help: 'Age of the oldest push still to reach the platform (queued, retrying or in flight); 0 when none.',
      registers,
      async collect() {
        const backlog = await pushBacklog(db);
        const oldest = backlog.oldest as string | null;
        this.set(oldest ? Math.max(0, (clock.now().getTime() - Date.parse(oldest)) / 1000) : 0);
      },
    });
    new Gauge({
      name: 'codrail_whatsapp_messages',
      help: 'WhatsApp messages by status (present once messages exist).',
      labelNames: ['status'],
      registers,
      async collect() {
        this.reset();
        for (const row of await countMessagesByStatus(db)) this.set({ status: row.status }, Number(row.n));
      },
    });
  }

  request(method: string, route: string, status: number, seconds: number): void {
    this.#requests.inc({ method, route, status: String(status) });
    this.#latency.observe({ method, route }, seconds);
  }

  orderCreated(mode: string): void {
    this.#orders.inc({ mode });
  }

  /** An order event committed (a subscriber of the one order-event writer), with its order as it then stood. */
  orderEvent(event: Pick<OrderEvent, 'type' | 'actor' | 'data' | 'created_at'>, order?: Pick<OrderRow, 'risk_score' | 'confirmation_asked_at' | 'sandbox'>): void {
    this.#events.inc({ type: event.type });
    if (!order || order.sandbox === 1 || event.type !== 'order.status_changed') return;
    const to = event.data.to;
    if (to === 'confirmed' && event.actor === BUYER_ACTOR && order.confirmation_asked_at) this.#toConfirm.observe(Math.max(0, (Date.parse(event.created_at) - Date.parse(order.confirmation_asked_at)) / 1000));
    if (to === 'delivered' || to === 'returned') this.#outcomes.inc({ risk_band: riskBand(order.risk_score), outcome: to });
  }

  orderRefused(reason: string): void {
    this.#refused.inc({ reason });
  }

  /** Counted wherever an error surfaces (a request, an outbox attempt) when it is SQLite's busy error. */
  noteError(error: unknown): void {
    if ((error as { code?: unknown } | null)?.code === 'SQLITE_BUSY') this.#busy.inc();
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
