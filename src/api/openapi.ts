// GET /openapi.json: OpenAPI 3.0.3 generated from the same valibot schemas the routes validate
// with (SPEC 4.3, seed 9). Built once per base URL.
import { OPERATIONS } from '../use-cases/operations/index.ts';
import { openApiSchema } from './v1/operation-schemas.ts';
import { operationPaths } from './v1/operation-openapi.ts';
import { CreateOrderInputSchema } from '../use-cases/orders/create-order.schema.ts';
import { CreateOrderSuccessSchema } from '../use-cases/orders/order-view.ts';
import { CitiesResponseSchema, ErrorResponseSchema, HealthResponseSchema, ReadyResponseSchema } from './schemas.ts';
import { CITIES_MAX_AGE_S, LANDING_MAX_AGE_S, MAX_BODY_BYTES } from '../limits.ts';
import { SIGNED_WEBHOOKS } from '../platforms/index.ts';

type Json = Record<string, unknown>;

export { openApiSchema };

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ 'application/json': { schema } });
const error = (description: string) => ({ description, content: json(ref('ErrorResponse')) });
const rateHeaders = {
  'RateLimit-Limit': { description: 'Requests allowed in the tightest window.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in that window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until that window resets.', schema: { type: 'integer' } },
  'X-Request-Id': { description: 'Request id (echoed when the client sent one).', schema: { type: 'string' } },
};

export function buildOpenApi(baseUrl: string): Json {
  const account = operationPaths(OPERATIONS);
  return {
    openapi: '3.0.3',
    info: {
      title: 'codrail API',
      version: '1.0.0',
      description:
        'Cash-on-delivery commerce rail: create COD orders, list the region → city selector, and operate the account ' +
        '(stores, domains, keys, products, packs, prices, landing pages) under /api/v1 with a secret key: the same operations as the MCP tools. ' +
        `Every error uses ErrorResponse (an unknown path answers 404, a wrong method 405 with Allow). Bodies over ${MAX_BODY_BYTES} bytes are refused (413).`,
    },
    servers: [{ url: baseUrl }],
    tags: [
      { name: 'orders', description: 'Orders: the public order API (checkouts, landing pages) and the account API (life after checkout).' },
      { name: 'fulfillment', description: "Pushes to the fulfillment platform, a store's connection, the platform's catalog and status webhook." },
      { name: 'products', description: 'Products, their hosted images, pack ladders, prices and price floor.' },
      { name: 'landing pages', description: 'Landing pages: sections, SEO, theme, publishing; the public page and its no-script form.' },
      { name: 'checkout', description: "The embeddable checkout: its script and a product's packs for a publishable key." },
      { name: 'whatsapp', description: "WhatsApp notices to buyers: a store's settings, messages, and the Cloud API's status webhook." },
      { name: 'webhooks', description: "Signed events to the seller's own systems: endpoints, deliveries, events, replay (REST and CLI only)." },
      { name: 'stores', description: 'Stores, their checkout domains and block lists.' },
      { name: 'keys', description: 'API keys: publishable (checkouts) and secret (server to server, with scopes).' },
      { name: 'geo', description: 'Countries, regions, cities, city canonicalization, phone numbers.' },
      { name: 'account', description: 'The account a secret key names.' },
      { name: 'health', description: 'Liveness, readiness, this document.' },
    ],
    paths: {
      '/api/orders/create': {
        post: {
          operationId: 'createOrder', tags: ['orders'],
          summary: 'Create a COD order',
          description:
            'Mode 1: `landing_page_id`, no credential. Mode 2: `store_id` + `product_id` with a publishable key ' +
            '(`x-svc-api-key` or Bearer, origin checked) or a secret key (Bearer). Test keys create sandbox orders. ' +
            'Strings are trimmed before length checks; money has at most 2 decimals. An `Idempotency-Key` makes retries return the first answer.',
          security: [{}, { publishableKey: [] }, { bearerKey: [] }],
          parameters: [
            { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } },
          ],
          requestBody: { required: true, content: json(ref('CreateOrderInput')) },
          responses: {
            '200': { description: 'Order created (or the first answer of a retry or duplicate).', headers: rateHeaders, content: json(ref('CreateOrderSuccess')) },
            '400': error('Invalid data, price below the floor, or "Order rejected" (anti-bot).'),
            '401': error('Credential missing, malformed, unknown or revoked (mode 2).'),
            '403': error('Key not valid for this store, product or origin.'),
            '413': error('Body too large.'),
            '415': error('Content-Type is not application/json.'),
            '429': {
              ...error('Rate limit exceeded.'),
              headers: { ...rateHeaders, 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
            },
            '500': error('Internal error (details only in the server log).'),
          },
        },
        options: { operationId: 'createOrderPreflight', tags: ['orders'], summary: 'CORS preflight', security: [], responses: { '204': { description: 'Preflight answer.' } } },
      },
      '/api/geo/cities': {
        get: {
          operationId: 'listCities', tags: ['geo'],
          summary: 'Regions and cities of a country',
          description: `Official datasets: AR, CL, CO, EC, GT, MX, PE, PY. Other ISO codes answer official:false. Cacheable ${CITIES_MAX_AGE_S} s, strong ETag, gzip/br.`,
          security: [],
          parameters: [
            { name: 'country', in: 'query', required: true, description: 'ISO 3166-1 alpha-2, case-insensitive.', schema: { type: 'string', minLength: 2, maxLength: 2 } },
            { name: 'names', in: 'query', required: false, description: '1 adds `names`: the names buyers use and the aliases a city search accepts (issue 23). Default 0: the seed shape.', schema: { type: 'string', enum: ['0', '1', 'true', 'false'] } },
            { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
          ],
          responses: {
            '200': { description: 'The selector.', headers: { ETag: { schema: { type: 'string' } }, 'Cache-Control': { schema: { type: 'string' } } }, content: json(ref('CitiesResponse')) },
            '304': { description: 'Not modified (If-None-Match matched).' },
            '400': error('country missing or not ISO 3166-1 alpha-2, or names not 0 or 1.'),
            '500': error('Internal error.'),
          },
        },
        options: { operationId: 'listCitiesPreflight', tags: ['geo'], summary: 'CORS preflight', security: [], responses: { '204': { description: 'Preflight answer.' } } },
      },
      '/healthz': {
        get: { operationId: 'healthz', tags: ['health'], summary: 'Liveness', security: [], responses: { '200': { description: 'Alive.', content: json(ref('HealthResponse')) } } },
      },
      '/readyz': {
        get: {
          operationId: 'readyz', tags: ['health'],
          summary: 'Readiness: database reachable, migrations current',
          security: [],
          responses: { '200': { description: 'Ready.', content: json(ref('ReadyResponse')) }, '503': error('Not ready.') },
        },
      },
      '/api/fulfillment/hooks/{token}': {
        post: {
          operationId: 'platformHook', tags: ['fulfillment'],
          summary: "Status report from a platform whose webhooks are unsigned (Dropi), at the connection's own path",
          description:
            "The path token (get_fulfillment_connection's webhook_url) is the only proof, so the report is never applied as sent: it is acknowledged at once, an unchanged status is a duplicate, and the order is read again through the platform's API before its status is applied. A body that cannot be read is acknowledged too (accepted: false), so the platform does not retry it forever.",
          security: [],
          parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: json({ type: 'object', description: "The platform's own report, e.g. Dropi's {id, status, shop_order_id, shipping_guide}." }) },
          responses: {
            '200': {
              description: 'Acknowledged; the order is re-read through the API unless a duplicate.',
              content: json({
                type: 'object',
                required: ['success', 'data'],
                properties: { success: { type: 'boolean', enum: [true] }, data: { type: 'object', required: ['accepted', 'duplicate'], properties: { accepted: { type: 'boolean' }, duplicate: { type: 'boolean' } } } },
              }),
            },
            '404': error('No connection has this path.'),
            '413': error('Body over 64 KiB.'),
          },
        },
      },
      '/api/fulfillment/webhook': {
        post: {
          operationId: 'fulfillmentWebhook', tags: ['fulfillment'],
          summary: 'Status report from the fulfillment platform (docs/fulfillment-platform.md)',
          description:
            'Signed with `X-Codrail-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` and the shared secret (CODRAIL_FULFILLMENT_WEBHOOK_SECRET); older or newer than 5 minutes is refused. A repeated `event_id` is acknowledged and ignored.',
          security: [],
          parameters: [{ name: 'X-Codrail-Signature', in: 'header', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: json(ref('FulfillmentWebhookEvent')) },
          responses: {
            '200': {
              description: 'Acknowledged (and applied unless a duplicate).',
              content: json({
                type: 'object',
                required: ['success', 'data'],
                properties: { success: { type: 'boolean', enum: [true] }, data: { type: 'object', required: ['duplicate', 'applied'], properties: { duplicate: { type: 'boolean' }, applied: { type: 'boolean' } } } },
              }),
            },
            '400': error('Not JSON, or not a status report.'),
            '401': error('Missing, invalid or expired signature.'),
            '413': error('Body over 64 KiB.'),
            '503': error('Webhooks are not configured on this server.'),
          },
        },
      },
      '/api/whatsapp/webhook': {
        post: {
          operationId: 'whatsappWebhook', tags: ['whatsapp'],
          summary: "Message statuses from the WhatsApp Cloud API (sent, delivered, read, failed), and buyers' answers",
          description:
            "Meta's webhook payload (`entry[].changes[].value.statuses[]` and `.messages[]`), signed with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>` and the app secret (CODRAIL_WHATSAPP_APP_SECRET). Statuses only move forward; repeats change nothing. A buyer's message answers their confirmation request: a quick-reply tap (`button.payload` or `interactive.button_reply.id`: `confirm|cancel|correct:<order id>`, from that order's buyer) or a text; each message id is applied once. `data.messages` counts what they did, when there were any.",
          security: [],
          parameters: [{ name: 'X-Hub-Signature-256', in: 'header', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: json({ type: 'object', required: ['entry'], properties: { object: { type: 'string' }, entry: { type: 'array', items: { type: 'object' } } } }) },
          responses: {
            '200': {
              description: 'Acknowledged.',
              content: json({
                type: 'object',
                required: ['success', 'data'],
                properties: {
                  success: { type: 'boolean', enum: [true] },
                  data: {
                    type: 'object',
                    required: ['statuses', 'applied'],
                    properties: {
                      statuses: { type: 'integer' },
                      applied: { type: 'integer' },
                      messages: {
                        type: 'object',
                        description: "What the buyers' messages did: confirmed, cancelled, correcting (a link sent), unchanged (a polite answer), noted (kept for support), ignored (a repeat, or no order of the sender).",
                        properties: Object.fromEntries(['confirmed', 'cancelled', 'correcting', 'unchanged', 'noted', 'ignored'].map((k) => [k, { type: 'integer' }])),
                      },
                    },
                  },
                },
              }),
            },
            '400': error('Not JSON, or not a WhatsApp Business webhook payload.'),
            '401': error('Missing or invalid signature.'),
            '413': error('Body over 256 KiB.'),
            '503': error('CODRAIL_WHATSAPP_APP_SECRET is not configured.'),
          },
        },
        get: {
          operationId: 'whatsappWebhookVerify', tags: ['whatsapp'],
          summary: "Meta's webhook subscription handshake",
          description: 'Answers `hub.challenge` as text when `hub.mode=subscribe` and `hub.verify_token` equals CODRAIL_WHATSAPP_VERIFY_TOKEN.',
          security: [],
          parameters: [
            { name: 'hub.mode', in: 'query', required: true, schema: { type: 'string' } },
            { name: 'hub.verify_token', in: 'query', required: true, schema: { type: 'string' } },
            { name: 'hub.challenge', in: 'query', required: true, schema: { type: 'string' } },
          ],
          responses: { '200': { description: 'The challenge, echoed.', content: { 'text/plain': { schema: { type: 'string' } } } }, '403': error('Wrong verify token.'), '503': error('CODRAIL_WHATSAPP_VERIFY_TOKEN is not configured.') },
        },
      },
      ...account.paths,
      '/l/{slug}': {
        get: {
          operationId: 'landingPage', tags: ['landing pages'],
          summary: 'A published landing page (HTML)',
          description: `Server-rendered page with the product, its packs and the cash-on-delivery form; an unknown or unpublished slug answers a 404 HTML page. Cache-Control public, max-age ${LANDING_MAX_AGE_S}; strong ETag per version (304); gzip/br.`,
          security: [],
          parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } }, '304': { description: 'Not modified.' }, '404': { description: 'No such published page (HTML).', content: { 'text/html': { schema: { type: 'string' } } } } },
        },
        post: {
          operationId: 'landingFormOrder', tags: ['landing pages'],
          summary: 'The page’s form posted without script',
          description: 'application/x-www-form-urlencoded: the order fields and `pack`; priced from the pack. Answers the confirmation page, or the form again with its errors (400, 429 with Retry-After).',
          security: [],
          parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: { type: 'string' } } } } },
          responses: {
            '200': { description: 'The confirmation page.', content: { 'text/html': { schema: { type: 'string' } } } },
            '400': { description: 'The form with the reasons under its fields.', content: { 'text/html': { schema: { type: 'string' } } } },
            '404': { description: 'No such published page.', content: { 'text/html': { schema: { type: 'string' } } } },
            '429': { description: 'Too many orders from this address: the form with a message.', content: { 'text/html': { schema: { type: 'string' } } } },
          },
        },
      },
      '/c/{token}': {
        get: {
          operationId: 'addressCorrectionPage', tags: ['orders'],
          summary: "The buyer's one-time address-correction page (HTML)",
          description: 'Sent to the buyer on WhatsApp when they tap Corregir dirección: the address as it will be shipped, in a form. Cache-Control no-store, Referrer-Policy no-referrer. A link unknown, used, expired, or of an order no longer pending or already pushed answers 410 (HTML).',
          security: [],
          parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'The form.', content: { 'text/html': { schema: { type: 'string' } } } }, '410': { description: 'The link no longer works (HTML).', content: { 'text/html': { schema: { type: 'string' } } } } },
        },
        post: {
          operationId: 'addressCorrection', tags: ['orders'],
          summary: 'The corrected address, posted by the page',
          description: 'application/x-www-form-urlencoded: departamento, ciudad, direccion, barrio, referencia (colonia, codigo_postal in MX). The city is canonicalized again, the link is used up and the order is confirmed by the buyer, in one transaction.',
          security: [],
          parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: { type: 'string' } } } } },
          responses: {
            '200': { description: 'What was saved; the order is confirmed.', content: { 'text/html': { schema: { type: 'string' } } } },
            '400': { description: 'The form with the reasons under its fields; nothing changed, the link still works.', content: { 'text/html': { schema: { type: 'string' } } } },
            '410': { description: 'The link no longer works (HTML).', content: { 'text/html': { schema: { type: 'string' } } } },
          },
        },
      },
      '/img/{file}': {
        get: {
          operationId: 'productImageFile', tags: ['products'],
          summary: 'A hosted product image file',
          description:
            'One re-encoded file of a hosted product image, named `<id>-<width>.<avif|webp|jpg>` (the `id` and widths of a product image; `srcset` lists them). ' +
            'The name never changes meaning: `Cache-Control: public, max-age=31536000, immutable`, a strong ETag (304 on If-None-Match), `X-Content-Type-Options: nosniff`, `Cross-Origin-Resource-Policy: cross-origin`.',
          security: [],
          parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{22}-[0-9]{3,4}\\.(avif|webp|jpg)$' } }],
          responses: {
            '200': {
              description: 'The file.',
              content: Object.fromEntries(['image/avif', 'image/webp', 'image/jpeg'].map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
            },
            '304': { description: 'Not modified.' },
            '404': error('No such file (an unknown image, width or format, or a malformed name).'),
          },
        },
      },
      '/checkout.js': {
        get: {
          operationId: 'checkoutScript', tags: ['checkout'],
          summary: 'The embeddable checkout script',
          description: 'Enhances a landing page’s form, and renders the order form into `<div data-codrail-checkout data-key data-store data-product>` on a merchant’s site (mode 2).',
          security: [],
          responses: { '200': { description: 'JavaScript.', content: { 'text/javascript': { schema: { type: 'string' } } } }, '304': { description: 'Not modified.' } },
        },
      },
      '/api/checkout/products/{product_id}': {
        get: {
          operationId: 'checkoutProduct', tags: ['checkout'],
          summary: 'A product’s packs and prices, and its order form, for a publishable key',
          description: `The key's store, product and origin rules apply (403 otherwise); CORS reflects the asking origin on every answer, refusals included, so the checkout can say it is not available there. Cache-Control no-store: no cache shares one key's or origin's answer with another.`,
          security: [{ publishableKey: [] }],
          parameters: [
            { name: 'product_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
            { name: 'store_id', in: 'query', required: true, schema: { type: 'string', format: 'uuid' } },
          ],
          responses: {
            '200': { description: 'The product as the checkout shows it.', content: json({ type: 'object', required: ['success', 'data'], properties: { success: { type: 'boolean', enum: [true] }, data: { type: 'object' } } }) },
            '400': error('store_id or product_id is not a UUID.'),
            '401': error('Missing, unknown, revoked or secret key.'),
            '403': error('The key may not sell this product from this origin.'),
            '404': error('No such active product with packs in the store.'),
          },
        },
        options: {
          operationId: 'checkoutProductPreflight',
          tags: ['checkout'],
          summary: 'CORS preflight',
          security: [],
          parameters: [{ name: 'product_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: { '204': { description: 'Preflight answer.' } },
        },
      },
      '/openapi.json': {
        get: { operationId: 'openapi', tags: ['health'], summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI 3.0.3 document.', content: json({ type: 'object' }) } } },
      },
    },
    components: {
      securitySchemes: {
        publishableKey: { type: 'apiKey', in: 'header', name: 'x-svc-api-key', description: '`svc_live_pub_…` or `svc_test_pub_…` (sandbox).' },
        bearerKey: { type: 'http', scheme: 'bearer', description: 'A publishable key, or a secret key `svc_live_secret_…` (server to server).' },
        secretKey: { type: 'http', scheme: 'bearer', description: 'A secret key `svc_live_secret_…`: the account API acts on every store of its account. OAuth access tokens are valid only for /api/mcp.' },
      },
      // Answers outside any operation: an unknown path, or a method the path does not have (with Allow).
      responses: {
        NotFound: error('No route has this path.'),
        MethodNotAllowed: {
          ...error('The path exists but not with this method.'),
          headers: { Allow: { description: 'Methods the path accepts.', schema: { type: 'string' } } },
        },
      },
      schemas: {
        CreateOrderInput: openApiSchema(CreateOrderInputSchema),
        CreateOrderSuccess: openApiSchema(CreateOrderSuccessSchema),
        CitiesResponse: openApiSchema(CitiesResponseSchema),
        ErrorResponse: openApiSchema(ErrorResponseSchema),
        HealthResponse: openApiSchema(HealthResponseSchema),
        ReadyResponse: openApiSchema(ReadyResponseSchema),
        FulfillmentWebhookEvent: openApiSchema(SIGNED_WEBHOOKS.schema),
        ...account.schemas,
      },
    },
  };
}
