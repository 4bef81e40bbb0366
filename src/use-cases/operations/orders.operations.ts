// Orders (MCP-TOOLS.md §6.7 rows 35-39, 41, 42). `codrail orders list|show` stay the operator's
// support views (all accounts, review and sandbox filters); the other order commands derive from here.
import { GetAccountOrderSchema, ListAccountOrdersSchema, getAccountOrder, listAccountOrderPage } from '../orders/account-orders.use-case.ts';
import { CreateAccountOrderSchema } from '../orders/create-account-order.schema.ts';
import { createAccountOrder } from '../orders/create-account-order.use-case.ts';
import { CreatedAccountOrder, OrderDetail, OrderPage } from '../orders/order.schemas.ts';
import { AddOrderNoteInput, CancelOrderInput, ResolveOrderCityInput, ListOrderEventsInput, OrderEventPage, UpdateOrderBuyerInput, UpdateOrderStatusInput } from '../orders/order-life.schemas.ts';
import { addOrderNote, cancelOrder, listOrderEvents, updateOrderBuyer, updateOrderStatus } from '../orders/order-life.use-case.ts';
import { resolveOrderCity } from '../orders/resolve-city.use-case.ts';
import { CHANGES, CREATES, DESTROYS, READ_ONLY, defineOperation } from './operation.ts';

export const orderOperations = [
  defineOperation({
    name: 'list_orders',
    title: 'List orders',
    description:
      'Order summaries, newest or riskiest first, by store, status, review, confirmation, risk, sandbox, push state, days, region, product or text (number, nombre, telefono, ciudad). get_order for one. Paged. Scope: orders:read.',
    scope: 'orders:read',
    annotations: READ_ONLY,
    input: ListAccountOrdersSchema,
    output: OrderPage,
    hints: { invalid_cursor: 'Pass next_cursor from the previous list_orders answer, or omit cursor to start over.' },
    http: 'GET /orders',
    run: listAccountOrderPage,
  }),
  defineOperation({
    name: 'get_order',
    title: 'Get order',
    description:
      'One full order: buyer, address, pack, totals, status, city review and match, event timeline, push state. order_id from list_orders, or the order number. Scope: orders:read.',
    scope: 'orders:read',
    annotations: READ_ONLY,
    input: GetAccountOrderSchema,
    output: OrderDetail,
    hints: { not_found: 'order_id must be an order id returned by list_orders or create_order for this account.' },
    http: 'GET /orders/:order_id',
    run: getAccountOrder,
  }),
  defineOperation({
    name: 'create_order',
    title: 'Create order',
    description:
      'Create a cash-on-delivery order priced from the packs (no price input): floor and anti-fraud checks, city canonicalized, duplicates suppressed; an unsure city gives needs_review and city_candidates. Requires idempotency_key. Scope: orders:create.',
    scope: 'orders:create',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: CreateAccountOrderSchema,
    output: CreatedAccountOrder,
    hints: {
      not_found: 'store_id comes from get_account; product_id must be a product of that store.',
      conflict: 'This idempotency_key was used for a different order: use a new key for a new order.',
      price_below_floor: 'The pack price is below its floor: the store owner must fix the pack prices.',
    },
    http: 'POST /orders',
    creates: true,
    run: createAccountOrder,
  }),
  defineOperation({
    name: 'update_order_buyer',
    title: 'Update order buyer',
    description: 'Correct buyer or address fields (nombre, telefono, departamento, ciudad, direccion…); a new city is canonicalized again. Refused (invalid_state) once the order was pushed. Scope: orders:write.',
    scope: 'orders:write',
    annotations: CHANGES,
    input: UpdateOrderBuyerInput,
    output: OrderDetail,
    hints: { not_found: 'order_id must be an order id from list_orders.', invalid_state: 'Pushed orders are changed at the fulfillment platform.' },
    http: 'PATCH /orders/:order_id/buyer',
    cli: 'orders update-buyer <order_id>',
    run: updateOrderBuyer,
  }),
  defineOperation({
    name: 'update_order_status',
    title: 'Update order status',
    description: "Move an order through the COD lifecycle: pending to confirmed after the call (releases an on_confirm store's push), back to pending, or delivered/returned; illegal moves are invalid_state. Cancel with cancel_order. Scope: orders:write.",
    scope: 'orders:write',
    annotations: CHANGES,
    input: UpdateOrderStatusInput,
    output: OrderDetail,
    hints: { not_found: 'order_id must be an order id from list_orders.', invalid_state: 'get_order shows the current status; list_order_events the history.' },
    http: 'POST /orders/:order_id/status',
    cli: 'orders set-status <order_id>',
    run: updateOrderStatus,
  }),
  defineOperation({
    name: 'cancel_order',
    title: 'Cancel order',
    description: 'Cancel a pending, confirmed or processing order with a reason; if it reached the fulfillment platform it is cancelled there too, through the outbox. Cancelling again changes nothing. Scope: orders:write.',
    scope: 'orders:write',
    annotations: { ...DESTROYS, openWorldHint: true },
    input: CancelOrderInput,
    output: OrderDetail,
    hints: { not_found: 'order_id must be an order id from list_orders.', invalid_state: 'Shipped, delivered and returned orders cannot be cancelled.' },
    http: 'POST /orders/:order_id/cancel',
    cli: 'orders cancel <order_id>',
    run: cancelOrder,
  }),
  defineOperation({
    name: 'add_order_note',
    title: 'Add order note',
    description: "Append an internal note to an order's timeline, e.g. a call-centre outcome; buyers never see it. Returns the order with its events. Scope: orders:write.",
    scope: 'orders:write',
    annotations: CREATES,
    input: AddOrderNoteInput,
    output: OrderDetail,
    hints: { not_found: 'order_id must be an order id from list_orders.' },
    http: 'POST /orders/:order_id/notes',
    cli: 'orders note <order_id>',
    run: addOrderNote,
  }),
  defineOperation({
    name: 'resolve_order_city',
    title: 'Resolve order city',
    description:
      "Set the region and city of an order whose city awaits review to one entry of the store country's catalog (the spelling and code couriers use), keeping the buyer's text; the held push is released. Refused once the order reached the platform. Scope: orders:write.",
    scope: 'orders:write',
    annotations: CHANGES,
    input: ResolveOrderCityInput,
    output: OrderDetail,
    hints: { not_found: 'order_id must be an order id from list_orders.', invalid_input: 'Pick one of the city_review candidates of get_order, or a city from list_cities.' },
    http: 'POST /orders/:order_id/city',
    cli: 'orders resolve-city <order_id>',
    // Support's tool (the console, the CLI, REST): an assistant corrects the city with update_order_buyer.
    mcp: false,
    run: resolveOrderCity,
  }),
  defineOperation({
    name: 'list_order_events',
    title: 'List order events',
    description: "An order's timeline, oldest first: creation, status changes, corrections, notes, city resolution, push attempts and platform reports, each with its actor. Paged with cursor/limit. Scope: orders:read.",
    scope: 'orders:read',
    annotations: READ_ONLY,
    input: ListOrderEventsInput,
    output: OrderEventPage,
    hints: { not_found: 'order_id must be an order id from list_orders.', invalid_cursor: 'Pass next_cursor from the previous list_order_events answer.' },
    http: 'GET /orders/:order_id/events',
    cli: 'orders events <order_id>',
    run: listOrderEvents,
  }),
];
