// The embedded checkout (SPEC 13; issue 11): GET /checkout.js, the one script landing pages and
// merchants' sites load, and GET /api/checkout/products/:product_id, the product read it renders
// its form from (publishable key, origin checked, CORS reflected for allowed origins only).
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { RequestContext } from '../../http/context.ts';
import { allowOrigin } from '../../http/cors.ts';
import { sendBody, sendJson } from '../../http/respond.ts';
import { checkoutProduct } from '../../use-cases/landings/checkout-product.use-case.ts';
import { checkoutFragment } from '../../pages/landing.page.ts';
import { requestHost } from '../../domain/domains.ts';

import { CHECKOUT_PRODUCT_MAX_AGE_S, CHECKOUT_SCRIPT_MAX_AGE_S } from '../../limits.ts';

const source = readFileSync(new URL('../../pages/assets/checkout.js', import.meta.url));
const script = { identity: source, gzip: gzipSync(source), etag: `"${createHash('sha256').update(source).digest('base64url').slice(0, 22)}"` };

/** GET /checkout.js */
export function checkoutScriptRoute(ctx: RequestContext): void {
  const gzip = /\bgzip\b/.test(String(ctx.req.headers['accept-encoding'] ?? ''));
  const etag = gzip ? `${script.etag.slice(0, -1)}-gzip"` : script.etag;
  const headers = {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': `public, max-age=${CHECKOUT_SCRIPT_MAX_AGE_S}`,
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'X-Content-Type-Options': 'nosniff',
    Vary: 'Accept-Encoding',
    ETag: etag,
  };
  if (ctx.req.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) {
    ctx.res.writeHead(304, { ...ctx.headers, ...headers });
    ctx.res.end();
    return;
  }
  sendBody(ctx, 200, gzip ? script.gzip : script.identity, { ...headers, ...(gzip && { 'Content-Encoding': 'gzip' }) });
}

const header = (ctx: RequestContext, name: string): string | undefined => {
  const v = ctx.req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** GET /api/checkout/products/:product_id?store_id=… with the publishable key in x-svc-api-key. */
export async function checkoutProductRoute(ctx: RequestContext): Promise<void> {
  const origin = header(ctx, 'origin');
  ctx.headers.Vary = 'Origin, x-svc-api-key';
  {
    const view = await checkoutProduct(ctx.deps, {
      storeId: ctx.url.searchParams.get('store_id') ?? '',
      productId: ctx.params.product_id ?? '',
      apiKey: header(ctx, 'x-svc-api-key'),
      authorization: header(ctx, 'authorization'),
      origin,
      referer: header(ctx, 'referer'),
    });
    if (origin && requestHost(origin, undefined)) allowOrigin(ctx, origin);
    const fragment = checkoutFragment(view);
    sendJson(
      ctx,
      200,
      {
        success: true,
        data: {
          product: view.product,
          packs: view.packs.map((p) => ({ code: p.code, quantity: p.quantity, price: p.price, price_formatted: p.priceText, compare_at_formatted: p.compareAtText, label: p.label, is_default: p.isDefault })),
          store: { id: view.store.id, country: view.store.country, currency: view.store.currency, order_prefix: view.store.orderPrefix },
          region_label: view.regionLabel,
          city_selector: view.citySelector,
          sandbox: view.sandbox,
          form: fragment,
        },
      },
      { 'Cache-Control': `public, max-age=${CHECKOUT_PRODUCT_MAX_AGE_S}` },
    );
  }
}
