// Every REST route, as a table (STYLE: routes that read like a table).
import type { Route } from '../http/context.ts';
import { preflight, ORDER_ALLOWED_HEADERS } from '../http/cors.ts';
import { createOrderRoute } from './orders/create-order.route.ts';
import { citiesRoute } from './geo/cities.route.ts';
import { healthzRoute, readyzRoute } from './health.route.ts';
import { openApiRoute } from './openapi.route.ts';
import { platformHookRoute, webhookRoute } from './fulfillment/webhook.route.ts';
import { whatsappWebhookRoute, whatsappWebhookVerifyRoute } from './whatsapp/whatsapp-webhook.route.ts';
import { operationRoutes } from './v1/operation.route.ts';
import { landingOrderRoute, landingRoute } from './landings/landing.route.ts';
import { checkoutProductRoute, checkoutScriptRoute } from './landings/checkout.route.ts';
import { imageRoute } from './images/image.route.ts';
import { correctionRoute, correctionSubmitRoute } from './orders/correction.route.ts';
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
  // Unsigned platform webhooks (Dropi): each connection's own secret path.
  { method: 'POST', path: '/api/fulfillment/hooks/:token', handler: platformHookRoute },
  // WhatsApp Cloud API message statuses (signed by Meta's app secret) and its subscription handshake.
  { method: 'POST', path: '/api/whatsapp/webhook', handler: whatsappWebhookRoute },
  { method: 'GET', path: '/api/whatsapp/webhook', handler: whatsappWebhookVerifyRoute },
  // The buyer's side: landing pages (mode 1, with a no-script form post) and the embedded checkout (mode 2).
  { method: 'GET', path: '/l/:slug', handler: landingRoute },
  { method: 'POST', path: '/l/:slug', handler: landingOrderRoute },
  // The buyer's one-time address correction (issue 25).
  { method: 'GET', path: '/c/:token', handler: correctionRoute },
  { method: 'POST', path: '/c/:token', handler: correctionSubmitRoute },
  { method: 'GET', path: '/checkout.js', handler: checkoutScriptRoute },
  { method: 'GET', path: '/api/checkout/products/:product_id', handler: checkoutProductRoute },
  { method: 'OPTIONS', path: '/api/checkout/products/:product_id', handler: preflight('GET, OPTIONS', 'x-svc-api-key') },
  // Hosted product images: /img/<id>-<width>.<avif|webp|jpg>, immutable.
  { method: 'GET', path: '/img/:file', handler: imageRoute },
  // The account API: one route per account operation (src/use-cases/operations).
  ...operationRoutes(OPERATIONS),
];
