// Every REST route, as a table (STYLE: routes that read like a table).
import type { Route } from '../http/context.ts';
import { preflight, ORDER_ALLOWED_HEADERS } from '../http/cors.ts';
import { createOrderRoute } from './orders/create-order.route.ts';
import { citiesRoute } from './geo/cities.route.ts';
import { healthzRoute, readyzRoute } from './health.route.ts';
import { openApiRoute } from './openapi.route.ts';
import { webhookRoute } from './fulfillment/webhook.route.ts';
import { operationRoutes } from './v1/operation.route.ts';
import { OPERATIONS } from '../use-cases/operations/index.ts';

export const routes: readonly Route[] = [
  { method: 'POST', path: '/api/orders/create', handler: createOrderRoute },
  { method: 'OPTIONS', path: '/api/orders/create', handler: preflight('POST, OPTIONS', ORDER_ALLOWED_HEADERS) },
  { method: 'GET', path: '/api/geo/cities', handler: citiesRoute },
  { method: 'OPTIONS', path: '/api/geo/cities', handler: preflight('GET, OPTIONS', 'if-none-match') },
  { method: 'GET', path: '/healthz', handler: healthzRoute },
  { method: 'GET', path: '/readyz', handler: readyzRoute },
  { method: 'GET', path: '/openapi.json', handler: openApiRoute },
  { method: 'POST', path: '/api/fulfillment/webhook', handler: webhookRoute },
  // The account API: one route per account operation (src/use-cases/operations).
  ...operationRoutes(OPERATIONS),
];
