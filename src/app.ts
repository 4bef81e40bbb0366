// Composition root: openApp(config) → deps. Dependencies travel in this object; no singletons.
import type { Config } from './config.ts';
import { systemClock, type Clock } from './clock.ts';
import { createLogger, type Logger } from './log.ts';
import { openDatabase, type Db } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { Catalogs } from './use-cases/geo/catalogs.ts';
import { loadBundledCatalogs } from './use-cases/geo/load-bundled-catalogs.use-case.ts';
import { SigningKeys } from './use-cases/oauth/signing-keys.ts';
import { SecretKeys } from './secret-keys.ts';
import type { Metrics } from './metrics.ts';
import { OutboundClient, type Resolver } from './http/outbound/outbound-client.ts';
import { ClientDocumentFetches } from './use-cases/oauth/client-metadata.use-case.ts';
import { Failpoints } from './failpoints.ts';
import { OrderEvents } from './order-events/order-events.ts';
import { whatsappNotices } from './use-cases/whatsapp/buyer-messages.ts';
import { confirmationFollowUp } from './use-cases/orders/confirmation.use-case.ts';
import { webhookEvents } from './use-cases/webhooks/webhook-events.ts';
import { afterCommit } from './db/transaction.ts';
import { databasePaceSlots } from './db/queries/pace.queries.ts';
import { ImageEncoder } from './use-cases/products/image-encoder.ts';

export interface Deps {
  readonly config: Config;
  readonly db: Db;
  readonly log: Logger;
  readonly clock: Clock;
  readonly catalogs: Catalogs;
  /** OAuth access-token signing keys, cached by kid. */
  readonly signingKeys: SigningKeys;
  /** Seals and opens stored secrets (platform credentials) with AES-256-GCM. */
  readonly secrets: SecretKeys;
  /** Tells the outbox workers of this process that a job is due now (no-op outside `serve`). */
  readonly nudge: Nudges;
  /**
   * Prometheus counters and gauges (served on --metrics-port when set). Absent in a CLI command's
   * process, whose counters nothing would ever read: it does not load prom-client (issue 26).
   */
  readonly metrics?: Metrics;
  /** The one guarded outbound HTTP path (src/http/outbound): every call to another server. */
  readonly outbound: OutboundClient;
  /** Client metadata documents being fetched, and those that failed lately (issue 19 §1). */
  readonly clientDocuments: ClientDocumentFetches;
  /** Where the outbox attempts fail on purpose in tests (none unless CODRAIL_FAILPOINTS). */
  readonly failpoints: Failpoints;
  /** The one writer of order events, with its subscribers (src/order-events). */
  readonly orderEvents: OrderEvents;
  /** Re-encodes product images, a bounded number at a time (issue 23 §3). */
  readonly imageEncoder: ImageEncoder;
  /** A request from outside begins: see src/db/read-cache.ts (called by the HTTP shell). */
  readonly freshReads?: () => void;
}

/** Wake-ups for the workers running in this process; a worker registers itself when it starts. */
export class Nudges {
  fulfillment: () => void = () => {};
  whatsapp: () => void = () => {};
  webhooks: () => void = () => {};
}

export interface App extends Deps {
  close(): Promise<void>;
}

export interface OpenOptions {
  clock?: Clock;
  log?: Logger;
  /** The host-name resolver of outbound calls (the system's unless given). */
  resolve?: Resolver;
  /** Count metrics (default true); a one-shot CLI command says false. */
  metrics?: boolean;
}

export async function openApp(config: Config, options: OpenOptions = {}): Promise<App> {
  const counting = options.metrics === false ? undefined : await import('./metrics.ts');
  const clock = options.clock ?? systemClock;
  const log = options.log ?? createLogger(config.logLevel);
  const { db, close, freshReads } = openDatabase(config.database);
  const catalogs = new Catalogs(db, clock);
  const secrets = new SecretKeys(config);
  const signingKeys = new SigningKeys(db, clock, secrets);
  const metrics = counting && new counting.Metrics(db, clock);
  // Paced keys (Dropi's) reserve their starts in the database: one pace across instances (issue 28).
  const outbound = new OutboundClient({ ...(options.resolve && { resolve: options.resolve }), paceSlots: databasePaceSlots(db) });
  // Every order event, in the transaction of its change, reaches these (issue 21 §3).
  const orderEvents = new OrderEvents();
  const nudge = new Nudges();
  // Who confirmed and the return risk first: the notices and the seller's events then see the order as it stands.
  orderEvents.subscribe(confirmationFollowUp({ config }, orderEvents));
  orderEvents.subscribe(whatsappNotices({ config }, orderEvents));
  orderEvents.subscribe(webhookEvents(nudge));
  if (metrics) orderEvents.subscribe(async (tx, event, order) => afterCommit(tx, () => metrics.orderEvent(event, order)));
  return {
    config,
    db,
    log,
    clock,
    catalogs,
    signingKeys,
    secrets,
    nudge,
    ...(metrics && { metrics }),
    orderEvents,
    outbound,
    clientDocuments: new ClientDocumentFetches(),
    failpoints: new Failpoints(config.failpoints),
    imageEncoder: new ImageEncoder(),
    freshReads,
    close: async () => {
      outbound.close();
      await close();
    },
  };
}

/** Schema migrations, then the bundled city catalogs a fresh database lacks (`codrail migrate`). */
export async function migrate(deps: Pick<Deps, 'db' | 'clock'>): Promise<{ migrations: string[]; catalogs: string[] }> {
  const migrations = await migrateToLatest(deps.db);
  const catalogs = await loadBundledCatalogs(deps);
  return { migrations, catalogs };
}
