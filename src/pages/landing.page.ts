// The public landing page (SPEC 13; issue 11): server-rendered from the landing's sections, the
// product and its pack ladder, complete before any script runs (the stylesheet is inline, allowed
// by its hash in a strict Content-Security-Policy; the one script is ours, deferred). The same
// module renders the order confirmation and the 404 page.
import { createHash } from 'node:crypto';
import type { PublicLanding, PublicProduct } from '../use-cases/landings/public-landing.use-case.ts';
import { html, jsonData, trusted, type Html } from './html.ts';
import { LANDING_CSS } from './landing-style.ts';
import { orderForm, type FormState } from './order-form.ts';
import { FIELD_MESSAGES, TEXT } from './page-text.ts';

export interface RenderedPage {
  body: string;
  csp: string;
}

const FONTS = new Set(['serif', 'rounded', 'mono']);

/** Plain text with blank lines as paragraphs and line breaks kept. */
function paragraphs(text: string | undefined): Html {
  if (!text) return html``;
  return html`${text.split(/\n{2,}/).map((p) => html`<p>${p.split('\n').map((line, i) => (i === 0 ? html`${line}` : html`<br>${line}`))}</p>`)}`;
}

function section(s: PublicLanding['sections'][number], page: PublicLanding): Html {
  const heading = s.heading && html`<h2>${s.heading}</h2>`;
  const image = s.image_url && html`<img src="${s.image_url}" alt="${s.heading ?? page.product.name}" loading="lazy">`;
  const items = s.items ?? [];
  switch (s.type) {
    case 'hero':
      return html`<section class="hero">${heading}${paragraphs(s.body)}${image}</section>`;
    case 'benefits':
      return html`<section>${heading}${paragraphs(s.body)}<ul class="items">${items.map((i) => html`<li><strong>${i.title}</strong>${i.text && html`: ${i.text}`}</li>`)}</ul>${image}</section>`;
    case 'testimonials':
      return html`<section>${heading}${items.map((i) => html`<blockquote><p>${i.text ?? ''}</p><footer>— ${i.title}</footer></blockquote>`)}</section>`;
    case 'faq':
      return html`<section>${heading}${items.map((i) => html`<details><summary>${i.title}</summary>${paragraphs(i.text)}</details>`)}</section>`;
    case 'guarantee':
      return html`<section class="guarantee">${heading}${paragraphs(s.body)}</section>`;
    case 'gallery':
      return html`<section>${heading}<div class="gallery">${[...(s.image_url ? [{ url: s.image_url, alt: s.heading }] : []), ...page.product.images].map((img) => html`<img src="${img.url}" alt="${img.alt ?? page.product.name}" loading="lazy">`)}</div></section>`;
    case 'cta':
      return html`<section>${heading}${paragraphs(s.body)}<p><a class="cta" href="#pedido">${TEXT.submit}</a></p></section>`;
    default:
      return html`<section>${heading}${paragraphs(s.body)}${image}</section>`;
  }
}

function layout(opts: { title: string; description?: string | null; theme?: PublicLanding['theme']; main: Html; data?: unknown; script: boolean }): RenderedPage {
  const css = LANDING_CSS + (opts.theme?.primary_color ? `:root{--primary:${opts.theme.primary_color}}` : '');
  const hash = createHash('sha256').update(css).digest('base64');
  const font = opts.theme?.font && FONTS.has(opts.theme.font) ? `f-${opts.theme.font}` : '';
  const body = html`<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${opts.title}</title><link rel="icon" href="data:,">${opts.description && html`<meta name="description" content="${opts.description}">`}
<style>${trusted(css)}</style>${opts.script && html`<script src="/checkout.js" defer></script>`}</head>
<body class="${font}"><main>${opts.main}</main>${opts.data !== undefined && html`<script type="application/json" id="codrail-page">${jsonData(opts.data)}</script>`}</body></html>`;
  const csp = [
    "default-src 'none'",
    `style-src 'sha256-${hash}'`,
    "script-src 'self'",
    "connect-src 'self'",
    "img-src 'self' https: data:",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { body: body.value, csp };
}

/** The texts the page's script shows, from the same table as the server's (one place). */
export const clientText = (page: Pick<PublicProduct, 'regionLabel'>) => ({
  messages: FIELD_MESSAGES,
  regionLabel: page.regionLabel,
  chooseRegion: TEXT.chooseRegion(page.regionLabel),
  chooseCity: TEXT.chooseCity,
  sending: TEXT.sending,
  submit: TEXT.submit,
  errorsTitle: TEXT.errorsTitle,
  rejected: TEXT.rejected,
  network: TEXT.network,
  tooMany: TEXT.tooMany(999).replace('999', '{s}'),
  received: TEXT.received,
  orderNumber: TEXT.orderNumber,
  contact: TEXT.contact,
  payOnDelivery: TEXT.payOnDelivery('{total}'),
});

export function landingPage(page: PublicLanding, state: FormState = {}): RenderedPage {
  const [cover, ...rest] = page.product.images;
  const main = html`<header>${cover && html`<img src="${cover.url}" alt="${cover.alt ?? page.product.name}">`}<h1>${page.title}</h1>${paragraphs(page.product.description ?? undefined)}</header>
${page.sections.map((s) => section(s, page))}
${page.sections.some((s) => s.type === 'gallery') ? '' : rest.length > 0 && html`<section><div class="gallery">${rest.map((img) => html`<img src="${img.url}" alt="${img.alt ?? page.product.name}" loading="lazy">`)}</div></section>`}
<div class="cr-box" id="pedido">${orderForm(
    { action: `/l/${page.slug}`, packs: page.packs, regionLabel: page.regionLabel, regions: page.regions, country: page.store.country, postalCodeRequired: page.postalCodeRequired },
    state,
  )}</div>`;
  return layout({
    title: page.seoTitle ?? page.title,
    description: page.seoDescription,
    theme: page.theme,
    main,
    data: { landing_page_id: page.id, order_prefix: page.store.orderPrefix, text: clientText(page) },
    script: true,
  });
}

export function confirmationPage(page: PublicLanding, order: { order_number: number; nombre: string; total: string }): RenderedPage {
  const main = html`<div class="done" role="status"><h1>${TEXT.thanks(order.nombre.split(' ')[0] ?? order.nombre)}</h1>
<p>${TEXT.received}</p><p class="muted">${TEXT.orderNumber}</p><p class="number" data-order-number>${page.store.orderPrefix}${order.order_number}</p>
<p>${TEXT.payOnDelivery(order.total)}</p><p class="muted">${TEXT.contact}</p></div>`;
  return layout({ title: `${TEXT.received} · ${page.title}`, theme: page.theme, main, script: false });
}

export function notFoundPage(): RenderedPage {
  return layout({ title: TEXT.notFoundTitle, main: html`<div class="done"><h1>${TEXT.notFoundTitle}</h1><p>${TEXT.notFound}</p></div>`, script: false });
}

/** The embedded checkout's form (mode 2): the same template, styled for a shadow root on the merchant's page. */
export function checkoutFragment(view: PublicProduct): { html: string; css: string; text: ReturnType<typeof clientText> } {
  const form = orderForm({ action: '', packs: view.packs, regionLabel: view.regionLabel, regions: view.regions, country: view.store.country, postalCodeRequired: view.postalCodeRequired });
  return {
    html: html`<div class="cr-box">${form}</div>`.value,
    css: LANDING_CSS.replace(':root{', ':host{all:initial;display:block;').replace(/\bbody(\.f-\w+)?\{/g, (_m, f: string | undefined) => (f ? `.cr-box${f}{` : '.cr-box{')),
    text: clientText(view),
  };
}
