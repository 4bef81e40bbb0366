// GET /l/:slug — the public landing page — and POST /l/:slug, the order its plain HTML form sends
// when the buyer's browser runs no script (SPEC 13; issue 11). The page is cached by its version
// (ETag; the version changes with every edit of the landing, its product, packs or store) and
// compressed once per version.
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { RequestContext } from '../../http/context.ts';
import { readBody } from '../../http/body.ts';
import { sendBody } from '../../http/respond.ts';
import { AppError } from '../../errors.ts';
import { LANDING_CACHE_ENTRIES, LANDING_FORM_MAX_BYTES, LANDING_MAX_AGE_S } from '../../limits.ts';
import { findPublicLanding, placeLandingFormOrder, type PublicLanding } from '../../use-cases/landings/public-landing.use-case.ts';
import { confirmationPage, landingPage, notFoundPage, type RenderedPage } from '../../pages/landing.page.ts';
import { fieldMessage, TEXT } from '../../pages/page-text.ts';
import { parseForm } from '../../use-cases/form-text.ts';


const SECURITY = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'strict-origin-when-cross-origin' };

interface Encoded {
  etag: string;
  csp: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

const cache = new Map<string, Encoded>();

function encoded(page: PublicLanding): Encoded {
  let entry = cache.get(page.version);
  if (!entry) {
    const rendered = landingPage(page);
    const identity = Buffer.from(rendered.body);
    entry = { etag: `"${page.version}"`, csp: rendered.csp, identity, gzip: gzipSync(identity), br: brotliCompressSync(identity) };
    if (cache.size >= LANDING_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(page.version, entry);
  }
  return entry;
}

function sendPage(ctx: RequestContext, status: number, page: RenderedPage, headers: Record<string, string> = {}): void {
  sendBody(ctx, status, page.body, { ...SECURITY, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': page.csp, 'Cache-Control': 'no-store', ...headers });
}

const notFound = (ctx: RequestContext) => sendPage(ctx, 404, notFoundPage(), { 'Cache-Control': `public, max-age=${LANDING_MAX_AGE_S}` });

/** GET (and HEAD) /l/:slug. */
export async function landingRoute(ctx: RequestContext): Promise<void> {
  const page = await findPublicLanding(ctx.deps, ctx.params.slug ?? '');
  if (!page) return notFound(ctx);
  const e = encoded(page);
  const headers = { ...SECURITY, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': e.csp, 'Cache-Control': `public, max-age=${LANDING_MAX_AGE_S}`, Vary: 'Accept-Encoding' };
  const accept = String(ctx.req.headers['accept-encoding'] ?? '');
  const [coding, body] = /\bbr\b/.test(accept) ? ['br', e.br] : /\bgzip\b/.test(accept) ? ['gzip', e.gzip] : ['identity', e.identity];
  const etag = coding === 'identity' ? e.etag : `${e.etag.slice(0, -1)}-${coding}"`;
  if (ctx.req.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) {
    ctx.res.writeHead(304, { ...ctx.headers, ETag: etag, 'Cache-Control': headers['Cache-Control'], Vary: 'Accept-Encoding' });
    ctx.res.end();
    return;
  }
  sendBody(ctx, 200, body, { ...headers, ETag: etag, ...(coding !== 'identity' && { 'Content-Encoding': coding }) });
}

/** POST /l/:slug: the form without script. A refusal shows the form again with the buyer's values and the reasons. */
export async function landingOrderRoute(ctx: RequestContext): Promise<void> {
  const page = await findPublicLanding(ctx.deps, ctx.params.slug ?? '');
  if (!page) {
    ctx.req.resume();
    return notFound(ctx);
  }
  const type = String(ctx.req.headers['content-type'] ?? '');
  const raw = /^application\/x-www-form-urlencoded\b/i.test(type) ? await readBody(ctx, LANDING_FORM_MAX_BYTES) : (ctx.req.resume(), Buffer.alloc(0));
  let fields: Record<string, string>;
  try {
    fields = Object.fromEntries(parseForm(raw));
  } catch (error) {
    // Text that is not UTF-8 stores nothing: the empty form again, asking to check the data.
    if (!(error instanceof AppError) || !error.expose) throw error;
    return sendPage(ctx, 400, landingPage(page, { values: {}, errors: {}, banner: TEXT.rejected }));
  }
  try {
    const outcome = await placeLandingFormOrder({ ...ctx.deps, log: ctx.log }, page, fields, { ip: ctx.ip, origin: header(ctx, 'origin') }, {});
    const pack = page.packs.find((p) => p.code === (fields.pack || page.packs.find((x) => x.isDefault)?.code));
    const order = outcome.body.data;
    sendPage(
      ctx,
      200,
      confirmationPage(page, {
        number: `${page.store.orderPrefix}${order.order_number}`,
        nombre: fields.nombre ?? '',
        product: page.product.name,
        pack: pack ? TEXT.unit(pack.quantity) : '',
        total: pack?.priceText ?? '',
        // As it will be shipped: the stored (canonical) city and region, the buyer's street as typed.
        address: { direccion: (fields.direccion ?? '').trim(), barrio: fields.barrio?.trim(), ciudad: order.ciudad, departamento: order.departamento },
      }),
    );
  } catch (error) {
    if (!(error instanceof AppError) || !error.expose) throw error;
    const errors: Record<string, string> = {};
    let banner: string = TEXT.errorsTitle;
    for (const d of error.details ?? []) errors[d.field] = fieldMessage(d.field, page.regionLabel);
    if (error.code === 'order_rejected') banner = TEXT.rejected;
    if (error.code === 'rate_limited') banner = TEXT.tooMany(Number(error.headers?.['Retry-After'] ?? 60));
    if (errors.landing_page_id) banner = errors.landing_page_id;
    const status = error.code === 'rate_limited' ? 429 : 400;
    sendPage(ctx, status, landingPage(page, { values: fields, errors, banner }), error.headers ?? {});
  }
}

const header = (ctx: RequestContext, name: string): string | undefined => {
  const v = ctx.req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};
