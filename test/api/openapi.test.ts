import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startServer, type TestServer } from '../helpers/server.ts';
import { seedShop, orderBody, postOrder, type Shop } from '../helpers/fixtures.ts';
import { OpenApiChecker, HTTP_METHODS, type OpenApiDoc } from '../helpers/openapi.ts';
import { routes } from '../../src/api/routes.ts';
import { manualClock } from '../../src/clock.ts';
import { MAX_BODY_BYTES } from '../../src/limits.ts';

const ERROR_REF = '#/components/schemas/ErrorResponse';

/** find-my-way `/a/:id` → OpenAPI `/a/{id}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const readJson = async (res: Response): Promise<unknown> => JSON.parse(await res.text()) as unknown;

describe('GET /openapi.json', () => {
  let server: TestServer;
  let doc: OpenApiDoc;
  let api: OpenApiChecker;
  let shop: Shop;

  before(async () => {
    // A pinned clock keeps the one-per-minute IP window from rolling over between requests.
    server = await startServer({ rateIpPerMin: 1 }, { clock: manualClock('2025-06-02T15:00:05.000Z') });
    shop = await seedShop(server.deps);
    const res = await fetch(`${server.url}/openapi.json`);
    assert.equal(res.status, 200);
    doc = (await res.json()) as OpenApiDoc;
    api = new OpenApiChecker(doc);
  });
  after(() => server.close());

  describe('the document', () => {
    test('every operation is tagged with a declared resource, and the account API is not one tag for all (issue 21 §8)', () => {
      const declared = new Set((doc as unknown as { tags: { name: string }[] }).tags.map((t) => t.name));
      const byTag = new Map<string, number>();
      for (const [path, item] of Object.entries(doc.paths))
        for (const method of HTTP_METHODS) {
          const op = (item as Record<string, { tags?: string[]; operationId?: string } | undefined>)[method];
          if (!op) continue;
          assert.ok(op.tags?.length === 1 && declared.has(op.tags[0]!), `${method.toUpperCase()} ${path} (${op.operationId}) has tags ${JSON.stringify(op.tags)}`);
          if (path.startsWith('/api/v1/')) byTag.set(op.tags[0]!, (byTag.get(op.tags[0]!) ?? 0) + 1);
        }
      assert.ok(byTag.size >= 8, `the /api/v1 operations spread over resources: ${JSON.stringify(Object.fromEntries(byTag))}`);
      assert.ok((byTag.get('webhooks') ?? 0) >= 10);
    });

    test('the CORS preflight of a checkout product declares its path parameter', () => {
      const preflight = (doc.paths['/api/checkout/products/{product_id}'] as Record<string, { parameters?: { name: string; in: string }[] }>).options;
      assert.deepEqual(preflight?.parameters?.map((p) => [p.name, p.in]), [['product_id', 'path']]);
    });

    test('the document is served as JSON and declares OpenAPI 3.0.3 with interface version 1.0.0', async () => {
      const res = await fetch(`${server.url}/openapi.json`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.ok(res.headers.get('x-request-id'));
      assert.equal(doc.openapi, '3.0.3');
      assert.equal(doc.info.version, '1.0.0');
      assert.equal(typeof doc.info.title, 'string');
    });

    test('the document passes a real OpenAPI validator', async () => {
      const validator = new Validator();
      const res = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
      assert.equal(res.valid, true, JSON.stringify(res.errors));
    });

    test('the document names the server by the base URL it is served under', () => {
      const servers = (doc as unknown as { servers?: { url: string }[] }).servers;
      assert.deepEqual(servers?.map((s) => s.url), [server.url]);
    });

    test('the document describes exactly the routes the server has, path and method', () => {
      const served = routes.map((r) => `${r.method} ${openApiPath(r.path)}`).sort();
      const documented: string[] = [];
      for (const [path, item] of Object.entries(doc.paths))
        for (const method of HTTP_METHODS) if (item[method]) documented.push(`${method.toUpperCase()} ${path}`);
      assert.deepEqual(documented.sort(), served);
    });

    test('every operation has a unique operationId', () => {
      const ids = Object.values(doc.paths).flatMap((item) => HTTP_METHODS.flatMap((m) => (item[m] ? [item[m].operationId] : [])));
      assert.ok(ids.every((id) => typeof id === 'string' && id.length > 0));
      assert.equal(new Set(ids).size, ids.length);
    });

    test('the document declares the publishable-key header scheme and the bearer scheme, and order creation uses them', () => {
      const schemes = doc.components.securitySchemes ?? {};
      assert.deepEqual(schemes.publishableKey && { type: schemes.publishableKey.type, in: schemes.publishableKey.in, name: schemes.publishableKey.name }, {
        type: 'apiKey',
        in: 'header',
        name: 'x-svc-api-key',
      });
      assert.deepEqual(schemes.bearerKey && { type: schemes.bearerKey.type, scheme: schemes.bearerKey.scheme }, { type: 'http', scheme: 'bearer' });
      const security = api.operation('/api/orders/create', 'post').security ?? [];
      const used = new Set(security.flatMap((s) => Object.keys(s)));
      assert.deepEqual([...used].sort(), ['bearerKey', 'publishableKey']);
      // Mode 1 (landing page) needs no credential: the empty requirement must be allowed.
      assert.ok(security.some((s) => Object.keys(s).length === 0), 'order creation must also allow no credential (mode 1)');
    });

    test('order creation documents every error status it can answer, each as an ErrorResponse', () => {
      const op = api.operation('/api/orders/create', 'post');
      for (const status of ['400', '401', '403', '413', '415', '429', '500']) {
        const response = op.responses[status];
        assert.ok(response, `POST /api/orders/create does not document ${status}`);
        assert.equal(api.deref(response).content?.['application/json']?.schema?.$ref, ERROR_REF, `status ${status}`);
      }
      const retryAfter = api.response('/api/orders/create', 'post', 429).headers?.['Retry-After'];
      assert.ok(retryAfter, '429 documents Retry-After');
      const ok = api.response('/api/orders/create', 'post', 200);
      for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) assert.ok(ok.headers?.[name], `200 documents ${name}`);
    });

    test('the city listing documents 200, 304, 400 and 500, and readiness documents 503, as ErrorResponse where they are errors', () => {
      const cities = api.operation('/api/geo/cities', 'get');
      assert.deepEqual(Object.keys(cities.responses).sort(), ['200', '304', '400', '500']);
      for (const status of ['400', '500']) assert.equal(api.deref(cities.responses[status]!).content?.['application/json']?.schema?.$ref, ERROR_REF);
      assert.equal(api.response('/api/geo/cities', 'get', 200).content?.['application/json']?.schema?.$ref, '#/components/schemas/CitiesResponse');
      assert.equal(api.response('/readyz', 'get', 503).content?.['application/json']?.schema?.$ref, ERROR_REF);
    });

    test('the answers given outside any operation (404 unknown route, 405 wrong method) are documented as ErrorResponse', () => {
      const statuses = new Map<string, string | undefined>();
      for (const [name, response] of Object.entries(doc.components.responses ?? {}))
        statuses.set(name, response.content?.['application/json']?.schema?.$ref as string | undefined);
      assert.equal(statuses.get('NotFound'), ERROR_REF);
      assert.equal(statuses.get('MethodNotAllowed'), ERROR_REF);
    });

    test('the ErrorResponse schema is success false, an error text and optional field/message details', () => {
      const validate = api.component('ErrorResponse');
      assert.equal(validate({ success: false, error: 'x' }), true);
      assert.equal(validate({ success: false, error: 'x', details: [{ field: 'f', message: 'm' }] }), true);
      assert.equal(validate({ success: true, error: 'x' }), false);
      assert.equal(validate({ success: false }), false);
      assert.equal(validate({ success: false, error: 'x', details: [{ field: 'f' }] }), false);
    });

    test('the CreateOrderInput schema carries the limits of the seed', () => {
      const input = doc.components.schemas.CreateOrderInput as { properties: Record<string, Record<string, unknown>>; required: string[] };
      const p = input.properties;
      const lengths: Record<string, [number | undefined, number]> = {
        nombre: [2, 100],
        telefono: [6, 20],
        departamento: [2, 50],
        ciudad: [2, 100],
        direccion: [5, 300],
        barrio: [undefined, 100],
        referencia: [undefined, 300],
        distrito: [undefined, 100],
        colonia: [undefined, 100],
        codigo_postal: [undefined, 15],
      };
      for (const [field, [min, max]] of Object.entries(lengths)) {
        assert.equal(p[field]?.type, 'string', `${field} type`);
        assert.equal(p[field]?.minLength, min, `${field} minLength`);
        assert.equal(p[field]?.maxLength, max, `${field} maxLength`);
      }
      assert.equal(p.quantity?.type, 'integer');
      assert.equal(p.quantity?.minimum, 1);
      assert.equal(p.quantity?.maximum, 10);
      assert.equal(p.quantity?.default, 1);
      assert.equal(p.pack?.type, 'string');
      assert.equal(p.pack?.default, '1x');
      assert.equal(p.unit_price?.type, 'number');
      assert.equal(p.total_price?.type, 'number');
      for (const id of ['landing_page_id', 'store_id', 'product_id']) {
        assert.equal(p[id]?.type, 'string');
        assert.ok(p[id]?.format === 'uuid' || typeof p[id]?.pattern === 'string', `${id} is described as a uuid`);
      }
      assert.deepEqual([...input.required].sort(), ['ciudad', 'departamento', 'direccion', 'nombre', 'telefono', 'total_price', 'unit_price']);
    });

    test('the CreateOrderInput schema accepts the fixture order body and refuses one over the seed limits', () => {
      const validate = api.component('CreateOrderInput');
      const body = orderBody({ storeId: '7f0d2c2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f', productId: '0b1c2d3e-4f50-4612-8a3b-4c5d6e7f8091' });
      assert.equal(validate(body), true, JSON.stringify(validate.errors));
      assert.equal(validate({ ...body, quantity: 11 }), false);
      assert.equal(validate({ ...body, quantity: 0 }), false);
      assert.equal(validate({ ...body, nombre: 'A' }), false);
      assert.equal(validate({ ...body, nombre: 'A'.repeat(101) }), false);
      assert.equal(validate({ ...body, barrio: null }), true, 'optional text fields may be null');
    });
  });

  describe('live answers match the document', () => {
    test('the city listing answers 200 (official and not), 400 and 304 as documented', async () => {
      const co = await fetch(`${server.url}/api/geo/cities?country=CO`);
      api.assertResponse('/api/geo/cities', 'get', co.status, await readJson(co));
      assert.equal(co.status, 200);
      const us = await fetch(`${server.url}/api/geo/cities?country=us`);
      assert.equal(us.status, 200);
      api.assertResponse('/api/geo/cities', 'get', us.status, await readJson(us));
      for (const query of ['', '?country=', '?country=XX', '?country=COL']) {
        const bad = await fetch(`${server.url}/api/geo/cities${query}`);
        assert.equal(bad.status, 400, query);
        api.assertResponse('/api/geo/cities', 'get', bad.status, await readJson(bad));
      }
      const again = await fetch(`${server.url}/api/geo/cities?country=CO`, { headers: { 'if-none-match': co.headers.get('etag') ?? '' } });
      assert.equal(again.status, 304);
      assert.equal(await again.text(), '');
      api.assertResponse('/api/geo/cities', 'get', again.status, undefined);
    });

    test('liveness and readiness answer 200 as documented', async () => {
      const health = await fetch(`${server.url}/healthz`);
      assert.equal(health.status, 200);
      api.assertResponse('/healthz', 'get', health.status, await readJson(health));
      const ready = await fetch(`${server.url}/readyz`);
      assert.equal(ready.status, 200);
      api.assertResponse('/readyz', 'get', ready.status, await readJson(ready));
    });

    test('the order preflight answers 204 with no body, as documented', async () => {
      const res = await fetch(`${server.url}/api/orders/create`, {
        method: 'OPTIONS',
        headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
      });
      assert.equal(res.status, 204);
      assert.equal(await res.text(), '');
      api.assertResponse('/api/orders/create', 'options', res.status, undefined);
    });

    test('unknown routes and wrong methods answer bodies that match the documented 404 and 405 responses', async () => {
      const missing = await fetch(`${server.url}/api/nope`);
      assert.equal(missing.status, 404);
      const notFound = doc.components.responses?.NotFound;
      assert.ok(notFound);
      api.assertAgainst(notFound, 'GET /api/nope 404', await readJson(missing));
      const wrong = await fetch(`${server.url}/healthz`, { method: 'DELETE' });
      assert.equal(wrong.status, 405);
      const notAllowed = doc.components.responses?.MethodNotAllowed;
      assert.ok(notAllowed);
      api.assertAgainst(notAllowed, 'DELETE /healthz 405', await readJson(wrong));
      assert.equal(wrong.headers.get('allow'), 'GET, HEAD');
      assert.ok(notAllowed.headers?.Allow, '405 documents the Allow header');
    });

    // The following requests share one client IP limited to one counted order request per minute:
    // the refusals before the rate-limit step (415, 413, 400 body/mode, 401, 403) are not counted,
    // then one order is created (200) and the next counted request is refused (429).
    describe('order creation', () => {
      const check = async (res: Response) => {
        const body = await readJson(res);
        api.assertResponse('/api/orders/create', 'post', res.status, body);
        assert.ok(res.headers.get('x-request-id'));
        return body as { success: boolean; error?: string; details?: { field: string }[] };
      };
      const origin = { origin: 'http://localhost:5173' };

      test('a non-JSON content type answers 415 as documented', async () => {
        const res = await postOrder(server.url, 'nombre=Ana', { 'content-type': 'text/plain' });
        assert.equal(res.status, 415);
        await check(res);
      });

      test('a body over the limit answers 413 as documented', async () => {
        const res = await postOrder(server.url, JSON.stringify({ pad: 'x'.repeat(MAX_BODY_BYTES) }));
        assert.equal(res.status, 413);
        await check(res);
      });

      test('a body that is not JSON answers 400 as documented', async () => {
        const res = await postOrder(server.url, '{"nombre":');
        assert.equal(res.status, 400);
        await check(res);
      });

      test('a body with neither a landing page nor a store and product answers 400 with details as documented', async () => {
        const { store_id: _s, product_id: _p, ...rest } = orderBody(shop);
        const res = await postOrder(server.url, rest, { 'x-svc-api-key': shop.testKey, ...origin });
        assert.equal(res.status, 400);
        const body = await check(res);
        assert.deepEqual(body.details?.map((d) => d.field).sort(), ['product_id', 'store_id']);
      });

      test('a missing and an unknown credential answer 401 as documented', async () => {
        const none = await postOrder(server.url, orderBody(shop), origin);
        assert.equal(none.status, 401);
        await check(none);
        const unknown = await postOrder(server.url, orderBody(shop), { authorization: `Bearer svc_test_pub_${'A'.repeat(32)}`, ...origin });
        assert.equal(unknown.status, 401);
        await check(unknown);
      });

      test('an origin the key does not allow answers 403 as documented', async () => {
        const res = await postOrder(server.url, orderBody(shop), { 'x-svc-api-key': shop.liveKey, origin: 'https://evil.example' });
        assert.equal(res.status, 403);
        await check(res);
      });

      test('a valid sandbox order answers 200 with a CreateOrderSuccess and the rate-limit headers', async () => {
        const res = await postOrder(server.url, orderBody(shop), { 'x-svc-api-key': shop.testKey, origin: 'http://localhost' });
        const body = (await check(res)) as unknown as { data: { status: string; sandbox: boolean } };
        assert.equal(res.status, 200, JSON.stringify(body));
        assert.equal(body.data.status, 'pending');
        assert.equal(body.data.sandbox, true);
        assert.equal(res.headers.get('ratelimit-limit'), '1');
        assert.equal(res.headers.get('ratelimit-remaining'), '0');
        assert.ok(Number(res.headers.get('ratelimit-reset')) > 0);
      });

      test('the next order from the same IP answers 429 with Retry-After as documented', async () => {
        // Spends the IP's one counted request of the minute, unless the sandbox order test already has.
        const first = await postOrder(server.url, orderBody(shop, { telefono: '3001239876' }), { 'x-svc-api-key': shop.testKey, origin: 'http://localhost' });
        assert.ok([200, 429].includes(first.status), `the first order answers 200 or, once the minute is spent, 429: ${first.status}`);
        const res = await postOrder(server.url, orderBody(shop, { telefono: '3009876543' }), { 'x-svc-api-key': shop.testKey, origin: 'http://localhost' });
        assert.equal(res.status, 429);
        await check(res);
        assert.ok(Number(res.headers.get('retry-after')) > 0);
        assert.equal(res.headers.get('ratelimit-remaining'), '0');
      });
    });
  });
});
