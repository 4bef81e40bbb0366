// The platform seam (issue 22): everything codrail asks of a fulfillment platform, in codrail's own
// words. Above this file nothing knows which platform it talks to: the outbox pushes a PushOrder
// and records a RemoteOrder; a status report is a raw string the platform module maps; a catalog
// is departments and cities. Below it, one module per platform (src/platforms/<name>/), chosen by
// the store's connection (src/platforms/connections.ts): `generic` speaks codrail's own contract
// (docs/fulfillment-platform.md), `dropi` speaks Dropi (../shared/DROPI.md).
import type { Config } from '../config.ts';
import type { OutboundClient } from '../http/outbound/outbound-client.ts';
import type { StatusMapping } from '../domain/order-status.ts';

export const PLATFORM_NAMES = ['generic', 'dropi'] as const;
export type PlatformName = (typeof PLATFORM_NAMES)[number];

/** An order as every platform needs it; each module maps it to its own body. */
export interface PushOrder {
  /** codrail's order id: the platform's reference back to us (external_ref, shop_order_id). */
  id: string;
  order_number: number;
  created_at: string;
  country: string;
  currency: string;
  nombre: string;
  telefono_e164: string;
  departamento: string;
  ciudad: string;
  city_code: string | null;
  direccion: string;
  barrio: string | null;
  colonia: string | null;
  distrito: string | null;
  codigo_postal: string | null;
  referencia: string | null;
  total_price_minor: number;
  product: {
    name: string;
    sku: string | null;
    pack: string;
    quantity: number;
    /** Units in one pack ("2x" = 2). */
    pack_units: number;
    unit_price_minor: number;
    /** The platform product (and variant) it is linked to, when linked. */
    platform_ref: string | null;
    variant_ref: string | null;
  };
}

/** A platform order as codrail keeps it: the platform's id, its raw status, the carrier's guide. */
export interface RemoteOrder {
  id: string;
  /** Our order id as the platform echoes it, when it does. */
  reference: string | null;
  /** The platform's own status string, kept as it is. */
  status: string;
  tracking_number: string | null;
}

export interface PlatformAccount {
  /** The platform's account id, when the platform says whose token it is. */
  id: string | null;
  name: string | null;
}

export interface CatalogProduct {
  id: string;
  name: string;
  sku: string | null;
  price: number | null;
  stock: number | null;
  variants: { id: string; name: string }[];
}

export interface CatalogPage {
  products: CatalogProduct[];
  has_more: boolean;
}

export interface PlatformDepartment {
  id: string;
  name: string;
}

export interface PlatformCity {
  name: string;
  code: string | null;
}

/** One report of a platform webhook, before it is trusted. */
export interface WebhookReport {
  /** Deduplication key: the platform's event id, or (without one) the order and status. */
  eventId: string;
  remoteId: string;
  reference: string | null;
  status: string;
  tracking_number: string | null;
}

/** A connection open with one credential: every call bounded by the outbound path's deadline and byte cap. */
export interface PlatformSession {
  /** Creates the order. No platform here is idempotent: the outbox decides when this may be called. */
  create(order: PushOrder): Promise<RemoteOrder>;
  /** Every platform order carrying this order as its reference (several means a duplicate). */
  findByRef(order: Pick<PushOrder, 'id' | 'created_at'>): Promise<RemoteOrder[]>;
  get(remoteId: string): Promise<RemoteOrder>;
  /** Cancels; cancelling a cancelled order changes nothing. */
  cancel(remoteId: string): Promise<RemoteOrder>;
  /** The live check of a credential: whose it is, when the platform says. */
  account(): Promise<PlatformAccount>;
  products(query: string | undefined, page: number, perPage: number): Promise<CatalogPage>;
  product(id: string): Promise<CatalogProduct>;
  departments(): Promise<PlatformDepartment[]>;
  /** The cities of a department that take cash on delivery, spelled as the platform wants them on orders. */
  cities(department: PlatformDepartment): Promise<PlatformCity[]>;
}

export interface SessionOptions {
  url: string;
  token: string | undefined;
  timeoutMs: number;
  outbound: OutboundClient;
  /** `any` for a URL the operator configured; `public` for one a seller gave (no private addresses). */
  addresses: 'any' | 'public';
  /** The least gap between two requests of this credential (a paced platform; the server's setting). */
  intervalMs?: number;
}

/** How hard a platform may be called per connection; the outbox keeps to it per destination. */
export interface Pacing {
  /** Jobs of one connection in flight at once (its requests are paced further by the session). */
  concurrency: number;
}

export interface Platform {
  name: PlatformName;
  /** As sellers know it: "Dropi". */
  label: string;
  /** The base URL when the connection names none (the store's country; a test connection). */
  defaultUrl(o: { country: string; test: boolean; config: Pick<Config, 'fulfillmentUrl' | 'dropiUrl'> }): string | undefined;
  open(o: SessionOptions): PlatformSession;
  /** The platform's raw status as codrail's: where it moves an order, and whether it is known at all. */
  status(raw: string): StatusMapping;
  /** The raw status a cancel sets. */
  cancelled: string;
  pacing: Pacing;
  /** Whether a failure's answer says the credential itself no longer works: pushes pause until new credentials. */
  expired(failure: { status?: number | undefined }): boolean;
  /**
   * A webhook body as reports. `signed`: the server's shared secret signs it (the generic
   * contract); `path`: unsigned, so the receiver's unguessable path is the only proof and every
   * report is re-read through the API before it is applied.
   */
  webhook: { auth: 'signed' | 'path'; parse(body: unknown): WebhookReport };
}
