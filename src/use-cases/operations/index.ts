// Every account operation, in the tools/list order of MCP-TOOLS.md §7 (account/meta, orders,
// fulfillment push, products, prices & packs, landing pages, WhatsApp, geo, stores, domains & keys):
// clients that truncate the list drop the rarest and most sensitive tools first.
import type { Operation } from './operation.ts';
import { accountOperations } from './account.operations.ts';
import { orderOperations } from './orders.operations.ts';
import { fulfillmentOperations } from './fulfillment.operations.ts';
import { priceOperations, productOperations } from './products.operations.ts';
import { landingOperations } from './landings.operations.ts';
import { geoOperations } from './geo.operations.ts';
import { whatsappOperations } from './whatsapp.operations.ts';
import { blockListOperations, domainOperations, storeOperations } from './stores.operations.ts';
import { keyOperations } from './keys.operations.ts';

export type { Operation } from './operation.ts';

export const OPERATIONS: readonly Operation[] = [
  ...accountOperations,
  ...orderOperations,
  ...fulfillmentOperations,
  ...productOperations,
  ...priceOperations,
  ...landingOperations,
  ...whatsappOperations,
  ...geoOperations,
  ...storeOperations,
  ...domainOperations,
  ...keyOperations,
  // REST and CLI only (not MCP tools).
  ...blockListOperations,
];
