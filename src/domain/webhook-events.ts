// The events a seller's systems hear (issue 21 §4; SPEC 17): which order events matter outside,
// what each is called there, and the order as it was when it happened. Stripe's are the model: typed
// events with a stable id, a time, `livemode`, and the object in `data.object`. Pure rules: the
// writer and the deliveries live in src/use-cases/webhooks and src/webhooks.

export const WEBHOOK_EVENT_TYPES = [
  'order.created',
  'order.needs_review',
  'order.confirmed',
  'order.cancelled',
  'order.pushed',
  'order.push_failed',
  'order.shipped',
  'order.delivered',
  'order.returned',
  'whatsapp.message.failed',
  'fulfillment.connection_paused',
  'fulfillment.connection_resumed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What an endpoint subscribes to: some types, or every one (`*`, also types added later). */
export const ALL_EVENTS = '*';

/** The event `codrail webhooks test` sends: not an order's, delivered only to the endpoint tested. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** The fields of an order the snapshot reads (an order row). */
export interface OrderFacts {
  id: string;
  store_id: string;
  order_number: number;
  status: string;
  sandbox: number;
  needs_review: number;
  nombre: string;
  telefono: string;
  telefono_e164: string;
  departamento: string;
  ciudad: string;
  departamento_input: string;
  ciudad_input: string;
  city_code: string | null;
  city_match: string;
  direccion: string;
  barrio: string | null;
  referencia: string | null;
  distrito: string | null;
  colonia: string | null;
  codigo_postal: string | null;
  product_id: string;
  landing_page_id: string | null;
  pack: string;
  pack_units: number;
  quantity: number;
  unit_price_minor: number;
  total_price_minor: number;
  currency: string;
  fulfillment_status: string | null;
  tracking_number: string | null;
  cancel_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** The order as it was when the event happened, as every event's `data.object` carries it. */
export function orderSnapshot(o: OrderFacts) {
  return {
    id: o.id,
    object: 'order' as const,
    order_number: o.order_number,
    store_id: o.store_id,
    status: o.status,
    sandbox: o.sandbox === 1,
    needs_review: o.needs_review === 1,
    buyer: {
      nombre: o.nombre,
      telefono: o.telefono,
      telefono_e164: o.telefono_e164,
      departamento: o.departamento,
      ciudad: o.ciudad,
      direccion: o.direccion,
      barrio: o.barrio,
      referencia: o.referencia,
      distrito: o.distrito,
      colonia: o.colonia,
      codigo_postal: o.codigo_postal,
    },
    city: { departamento_input: o.departamento_input, ciudad_input: o.ciudad_input, code: o.city_code, match: o.city_match },
    product_id: o.product_id,
    landing_page_id: o.landing_page_id,
    pack: o.pack,
    pack_units: o.pack_units,
    quantity: o.quantity,
    unit_price: o.unit_price_minor / 100,
    total_price: o.total_price_minor / 100,
    currency: o.currency,
    fulfillment: { status: o.fulfillment_status, tracking_number: o.tracking_number },
    cancel_reason: o.cancel_reason,
    created_at: o.created_at,
    updated_at: o.updated_at,
  };
}

/** What one order event means outside: the webhook events it becomes, each with what it adds to `data`. */
export interface OutsideEvent {
  type: WebhookEventType;
  extra: Record<string, unknown>;
}

/** A status move the sellers' systems care about becomes `order.<status>`. */
const STATUS_EVENTS: ReadonlyMap<string, WebhookEventType> = new Map([
  ['confirmed', 'order.confirmed'],
  ['shipped', 'order.shipped'],
  ['delivered', 'order.delivered'],
  ['returned', 'order.returned'],
  ['cancelled', 'order.cancelled'],
]);

/** The webhook events of an order event (none for most: notes, corrections, WhatsApp steps but failure…). */
export function outsideEvents(event: { type: string; data: Record<string, unknown> }, order: Pick<OrderFacts, 'needs_review'>): OutsideEvent[] {
  const d = event.data;
  switch (event.type) {
    case 'order.created':
      return [{ type: 'order.created', extra: {} }, ...(order.needs_review === 1 ? [{ type: 'order.needs_review' as const, extra: { reason: (d.city as { reason?: unknown } | null)?.reason ?? null } }] : [])];
    case 'order.status_changed': {
      const type = typeof d.to === 'string' ? STATUS_EVENTS.get(d.to) : undefined;
      return type ? [{ type, extra: { previous_status: d.from ?? null } }] : [];
    }
    case 'order.cancelled':
      return [{ type: 'order.cancelled', extra: { previous_status: d.from ?? null, reason: d.reason ?? null } }];
    case 'fulfillment.pushed':
      return [{ type: 'order.pushed', extra: { remote_id: d.remote_id ?? null } }];
    case 'fulfillment.dead':
      return [{ type: 'order.push_failed', extra: { error: d.error ?? null } }];
    case 'whatsapp.failed':
      return [{ type: 'whatsapp.message.failed', extra: { message: { id: d.message_id ?? null, error: d.error ?? null } } }];
    default:
      return [];
  }
}

/** A store's event without an order (issue 22: its platform connection paused or resumed) as a webhook event, or none. */
export function storeEvent(event: { type: string; data: Record<string, unknown> }): OutsideEvent | undefined {
  switch (event.type) {
    case 'fulfillment.paused':
      return { type: 'fulfillment.connection_paused', extra: { platform: event.data.platform ?? null, reason: event.data.reason ?? null } };
    case 'fulfillment.resumed':
      return { type: 'fulfillment.connection_resumed', extra: { platform: event.data.platform ?? null, released: event.data.released ?? 0 } };
    default:
      return undefined;
  }
}

/** Whether an endpoint subscribed to a type (`*` takes every one). */
export const subscribes = (eventTypes: readonly string[], type: string): boolean => eventTypes.includes(ALL_EVENTS) || eventTypes.includes(type);

/** `evt_` and the time-ordered id without dashes: stable, unique, sortable. */
export const eventId = (uuid: string) => `evt_${uuid.replace(/-/g, '')}`;
