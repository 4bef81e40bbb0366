// The order's life after checkout (MCP-TOOLS.md §6.7 rows 38, 39, 41, 42): inputs and outputs.
import * as v from 'valibot';
import { ORDER_FIELD_LIMITS as L } from '../../limits.ts';
import { ORDER_STATUSES } from '../../db/tables/index.ts';
import { cursorInput, limitInput } from '../pagination.ts';
import { orderRefInput, pageOf, textInput, uuidInput } from '../fields.ts';

const orderId = orderRefInput('order_id', 'Order id or number (1001, TD-1001).');
const optionalText = (field: keyof typeof L, min: number, max: number, description: string) => v.optional(textInput(field, min, max, description));

/** Statuses a person may set; cancelling goes through cancel_order. */
export const SETTABLE_STATUSES = ORDER_STATUSES.filter((s) => s !== 'cancelled');

export const UpdateOrderStatusInput = v.strictObject({
  order_id: orderId,
  status: v.pipe(v.picklist(SETTABLE_STATUSES, `status must be one of ${SETTABLE_STATUSES.join(', ')} (cancel with cancel_order)`), v.description('New status: confirmed after the call, back to pending, or the delivery outcome.')),
  note: v.optional(textInput('note', 1, 1000, 'Why, for the timeline (e.g. the call outcome).', true)),
});

export const UpdateOrderBuyerInput = v.strictObject({
  order_id: orderId,
  nombre: optionalText('nombre', L.nombre.min, L.nombre.max, 'Buyer full name.'),
  telefono: optionalText('telefono', L.telefono.min, L.telefono.max, "Phone, valid for the store's country."),
  departamento: optionalText('departamento', L.departamento.min, L.departamento.max, 'Region; with ciudad, canonicalized again.'),
  ciudad: optionalText('ciudad', L.ciudad.min, L.ciudad.max, 'City; canonicalized again.'),
  direccion: optionalText('direccion', L.direccion.min, L.direccion.max, 'Delivery address.'),
  barrio: v.optional(textInput('barrio', 0, L.barrio.max, 'Neighbourhood; "" removes it.')),
  referencia: v.optional(textInput('referencia', 0, L.referencia.max, 'Delivery reference; "" removes it.')),
  distrito: v.optional(textInput('distrito', 0, L.distrito.max, 'District (PE, CR, PA); "" removes it.')),
  colonia: v.optional(textInput('colonia', 0, L.colonia.max, 'Colonia (MX); "" removes it.')),
  codigo_postal: v.optional(textInput('codigo_postal', 0, L.codigo_postal.max, 'Postal code (required in MX and ES).')),
});

export const AddOrderNoteInput = v.strictObject({ order_id: orderId, text: textInput('text', 1, 1000, 'The note, e.g. "Llamada: confirma entrega el martes".', true) });

export const ListOrderEventsInput = v.strictObject({ order_id: orderId, cursor: cursorInput, limit: limitInput });

export const OrderEvent = v.object({
  id: v.string(),
  type: v.pipe(v.string(), v.description('order.created, order.status_changed, order.buyer_updated, order.note, order.city_resolved, push and platform events…')),
  actor: v.pipe(v.string(), v.description('Who did it: key:<id>, oauth:<client>, cli, landing:<id>, system.')),
  data: v.unknown(),
  created_at: v.string(),
});

export const OrderEventPage = pageOf(OrderEvent);

export const CANCEL_REASONS = ['buyer_declined', 'unreachable', 'duplicate', 'fraud', 'other'] as const;

/** Support's pick of the catalog city for an order under review (the names of canonicalize_city's `region`, `city`). */
export const ResolveOrderCityInput = v.strictObject({
  order_id: orderId,
  region: textInput('region', 1, L.departamento.max, 'Catalog region (departamento, estado); accents and case do not matter.'),
  city: textInput('city', 1, L.ciudad.max, 'Catalog city of that region.'),
});

export const CancelOrderInput = v.strictObject({
  order_id: orderId,
  reason: v.pipe(v.picklist(CANCEL_REASONS, `reason must be one of ${CANCEL_REASONS.join(', ')}`), v.description('Why the order is cancelled.')),
  note: v.optional(textInput('note', 1, 1000, 'Details for the timeline.', true)),
});
