// Every account operation, in the tools/list order of MCP-TOOLS.md §7 (account/meta, orders,
// fulfillment push, products, prices & packs, landing pages, WhatsApp, geo, stores, domains & keys):
// clients that truncate the list drop the rarest and most sensitive tools first.
import type { Operation } from './operation.ts';
import { accountOperations } from './account.operations.ts';
import { orderOperations } from './orders.operations.ts';
import { fulfillmentOperations } from './fulfillment.operations.ts';
import { priceOperations, productImageOperations, productOperations } from './products.operations.ts';
import { landingOperations } from './landings.operations.ts';
import { geoOperations } from './geo.operations.ts';
import { whatsappOperations } from './whatsapp.operations.ts';
import { blockListOperations, domainOperations, storeOperations } from './stores.operations.ts';
import { keyOperations } from './keys.operations.ts';
import { webhookOperations } from './webhooks.operations.ts';

export type { Operation } from './operation.ts';

/** Each group under the resource it belongs to: its OpenAPI tag. */
const tagged = (tag: string, ops: readonly Operation[]): Operation[] => ops.map((op) => ({ ...op, tag }));

export const OPERATIONS: readonly Operation[] = [
  ...tagged('account', accountOperations),
  ...tagged('orders', orderOperations),
  ...tagged('fulfillment', fulfillmentOperations),
  ...tagged('products', productOperations),
  ...tagged('products', priceOperations),
  ...tagged('landing pages', landingOperations),
  ...tagged('whatsapp', whatsappOperations),
  ...tagged('geo', geoOperations),
  ...tagged('stores', storeOperations),
  ...tagged('stores', domainOperations),
  ...tagged('keys', keyOperations),
  // REST and CLI only (not MCP tools).
  ...tagged('stores', blockListOperations),
  ...tagged('products', productImageOperations),
  ...tagged('webhooks', webhookOperations),
];
