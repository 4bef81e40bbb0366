// The embedded checkout (SPEC 13; issue 11): GET /checkout.js, the one script landing pages and
// merchants' sites load, and GET /api/checkout/products/:product_id, the product read it renders
// its form from (publishable key, origin checked, CORS reflected for allowed origins only).
import type { RequestContext } from '../../http/context.ts';
import { allowOrigin } from '../../http/cors.ts';
import { sendBody, sendJson } from '../../http/respond.ts';
import { checkoutProduct } from '../../use-cases/landings/checkout-product.use-case.ts';
import { checkoutFragment } from '../../pages/landing.page.ts';
import { CHECKOUT_SCRIPT } from '../../pages/checkout-script.ts';
import { requestHost } from '../../domain/domains.ts';

import { CHECKOUT_SCRIPT_MAX_AGE_S } from '../../limits.ts';

const script = CHECKOUT_SCRIPT;
const etag = `"${script.version}"`;

/** GET /checkout.js — and /checkout.js?v=<version>, the same bytes cached for good. */
export function checkoutScriptRoute(ctx: RequestContext): void {
  const gzip = /\bgzip\b/.test(String(ctx.req.headers['accept-encoding'] ?? ''));
  const tag = gzip ? `${etag.slice(0, -1)}-gzip"` : etag;
  const pinned = ctx.url.searchParams.get('v') === script.version;
  const headers = {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': pinned ? 'public, max-age=31536000, immutable' : `public, max-age=${CHECKOUT_SCRIPT_MAX_AGE_S}`,
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'X-Content-Type-Options': 'nosniff',
    Vary: 'Accept-Encoding',
    ETag: tag,
  };
  if (ctx.req.headers['if-none-match']?.split(/\s*,\s*/).includes(tag)) {
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
  // Every answer, a refusal too, is readable by the page that asked (issue 23 §5): checkout.js then
  // says the form is not available on this site instead of failing like a lost connection. The
  // answer is public data or a refusal, and no cache may hand one key's or origin's answer to another.
  if (origin && requestHost(origin, undefined)) allowOrigin(ctx, origin);
  ctx.headers.Vary = 'Origin, x-svc-api-key';
  ctx.headers['Cache-Control'] = 'no-store';
  {
    const view = await checkoutProduct(ctx.deps, {
      storeId: ctx.url.searchParams.get('store_id') ?? '',
      productId: ctx.params.product_id ?? '',
      apiKey: header(ctx, 'x-svc-api-key'),
      authorization: header(ctx, 'authorization'),
      origin,
      referer: header(ctx, 'referer'),
    });
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
      {},
    );
  }
}
