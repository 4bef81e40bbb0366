// The public landing page (SPEC 13; issue 11): server-rendered from the landing's sections, the
// product and its pack ladder, complete before any script runs (the stylesheet is inline, allowed
// by its hash in a strict Content-Security-Policy; the one script is ours, deferred). The same
// module renders the order confirmation and the 404 page.
import { createHash } from 'node:crypto';
import type { PageImage, PublicLanding, PublicPack, PublicProduct } from '../use-cases/landings/public-landing.use-case.ts';
import { html, jsonData, trusted, type Html } from './html.ts';
import { LANDING_CSS } from './landing-style.ts';
import { CHECKOUT_SCRIPT_PATH } from './checkout-script.ts';
import { imageSet } from '../use-cases/products/images.ts';
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

/** Widths the page gives an image: the whole column on a phone, at most the 40rem column on a wide screen. */
const COVER_SIZES = '(min-width: 40rem) 40rem, 100vw';
const THUMB_SIZES = '(min-width: 40rem) 13rem, 50vw';

/**
 * An image as the page shows it: hosted ones as <picture> with AVIF and WebP sources over a JPEG
 * srcset (the browser picks the format and width it needs), their size known (no layout shift).
 * The cover is the page's largest paint: fetched first, never lazily.
 */
function picture(img: PageImage, alt: string, opts: { cover?: boolean; sizes: string }): Html {
  const size = img.width && img.height ? html` width="${img.width}" height="${img.height}"` : '';
  const load = opts.cover ? html` fetchpriority="high"` : html` loading="lazy" decoding="async"`;
  if (!img.srcset) return html`<img src="${img.src}" alt="${alt}"${size}${load}>`;
  return html`<picture><source type="image/avif" srcset="${img.srcset.avif}" sizes="${opts.sizes}"><source type="image/webp" srcset="${img.srcset.webp}" sizes="${opts.sizes}"><img src="${img.src}" srcset="${img.srcset.jpeg}" sizes="${opts.sizes}" alt="${alt}"${size}${load}></picture>`;
}

/** `https://wa.me/<digits>?text=…`: the store's support phone, opened in WhatsApp with a message. */
export const whatsappLink = (phone: string | null, message: string): string | null =>
  phone ? `https://wa.me/${phone.replace(/\D/g, '')}?text=${encodeURIComponent(message)}` : null;

const WA_ICON = trusted('<svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20"><path fill="currentColor" d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2Zm0 18.2c-1.5 0-3-.4-4.2-1.2l-.3-.2-3 .8.8-2.9-.2-.3A8.2 8.2 0 1 1 12 20.2Zm4.5-6.1c-.2-.1-1.5-.7-1.7-.8-.2-.1-.4-.1-.6.1l-.8 1c-.1.2-.3.2-.5.1a6.7 6.7 0 0 1-3.3-2.9c-.2-.4.2-.4.7-1.3.1-.2 0-.3 0-.4l-.8-1.8c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-.9 2.2 5.2 5.2 0 0 0 1.1 2.8 11.9 11.9 0 0 0 4.6 4c1.7.7 2.4.8 3.2.7.5-.1 1.5-.6 1.8-1.2.2-.6.2-1.1.1-1.2l-.5-.3Z"/></svg>');
const CHECK = trusted('<svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18"><path fill="currentColor" d="M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z"/></svg>');

function shopBar(page: PublicProduct, message: string): Html {
  const wa = whatsappLink(page.store.supportPhone, message);
  return html`<header class="shop"><span class="shop-name">${page.store.name}</span>${wa && html`<a class="wa" href="${wa}" rel="noopener" aria-label="${TEXT.whatsappLabel}">${WA_ICON}<span>${TEXT.whatsapp}</span></a>`}</header>`;
}

/** What a buyer trusts before ordering, in the store's own words: cash on delivery always, then delivery time and guarantee when set. */
function trustLine(page: PublicProduct): Html {
  const items = [TEXT.cashOnDelivery, page.store.deliveryTime, page.store.guarantee].filter((t): t is string => Boolean(t));
  return html`<ul class="trust">${items.map((t) => html`<li>${CHECK}${t}</li>`)}</ul>`;
}

/** The default pack's price, struck compare-at and saving beside it. */
function priceLine(pack: PublicPack | undefined): Html {
  if (!pack) return html``;
  const off = pack.compareAt && pack.compareAt > pack.price ? Math.round((1 - pack.price / pack.compareAt) * 100) : 0;
  return html`<p class="price"><strong data-price>${pack.priceText}</strong>${pack.compareAtText && off > 0 && html` <span class="sr">${TEXT.before}</span><s>${pack.compareAtText}</s> <span class="off">${TEXT.off(off)}</span>`}<span class="units" data-units>${TEXT.unit(pack.quantity)}</span></p>`;
}

/** The first phone screen (issue 23 §2): image, name, price, trust, and the order button. */
function firstScreen(page: PublicLanding): Html {
  const [cover] = page.pictures;
  const pack = page.packs.find((p) => p.isDefault) ?? page.packs[0];
  const folded = (t: string) => t.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return html`<section class="buy">${cover && picture(cover, cover.alt ?? page.product.name, { cover: true, sizes: COVER_SIZES })}
<div class="buy-text"><h1>${page.title}</h1>${!folded(page.title).includes(folded(page.product.name)) && html`<p class="pname">${page.product.name}</p>`}
${priceLine(pack)}${trustLine(page)}
<a class="cta" href="#pedido" data-order-now${pack && html` data-pack="${pack.code}"`}>${TEXT.orderNow}</a></div></section>`;
}

/** The slim bar that keeps the order button under the buyer's thumb while they scroll. */
function stickyBar(page: PublicLanding): Html {
  const pack = page.packs.find((p) => p.isDefault) ?? page.packs[0];
  return html`<div class="bar" data-bar><p><strong data-bar-price>${pack?.priceText ?? ''}</strong><span data-bar-units>${pack ? TEXT.unit(pack.quantity) : ''}</span></p><a class="cta" href="#pedido" data-order-now>${TEXT.orderNow}</a></div>`;
}

function section(s: PublicLanding['sections'][number], page: PublicLanding): Html {
  const heading = s.heading && html`<h2>${s.heading}</h2>`;
  const hosted = s.image && imageSet(s.image);
  const image = hosted
    ? picture({ ...hosted, alt: s.heading }, s.heading ?? page.product.name, { sizes: COVER_SIZES })
    : s.image_url && html`<img src="${s.image_url}" alt="${s.heading ?? page.product.name}" loading="lazy">`;
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
      return html`<section>${heading}<div class="gallery">${image}${page.pictures.slice(1).map((img) => picture(img, img.alt ?? page.product.name, { sizes: THUMB_SIZES }))}</div></section>`;
    case 'cta':
      return html`<section>${heading}${paragraphs(s.body)}<p><a class="cta" href="#pedido">${TEXT.submit}</a></p></section>`;
    default:
      return html`<section>${heading}${paragraphs(s.body)}${image}</section>`;
  }
}

export function layout(opts: { title: string; description?: string | null; theme?: PublicLanding['theme']; main: Html; data?: unknown; script: boolean; external?: boolean }): RenderedPage {
  const css = LANDING_CSS + (opts.theme?.primary_color ? `:root{--primary:${opts.theme.primary_color}}` : '');
  const hash = createHash('sha256').update(css).digest('base64');
  const font = opts.theme?.font && FONTS.has(opts.theme.font) ? `f-${opts.theme.font}` : '';
  const body = html`<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${opts.title}</title><link rel="icon" href="data:,">${opts.description && html`<meta name="description" content="${opts.description}">`}
<style>${trusted(css)}</style>${opts.script && html`<script src="${CHECKOUT_SCRIPT_PATH}" defer></script>`}</head>
<body class="${font}"><main>${opts.main}</main>${opts.data !== undefined && html`<script type="application/json" id="codrail-page">${jsonData(opts.data)}</script>`}</body></html>`;
  const csp = [
    "default-src 'none'",
    `style-src 'sha256-${hash}'`,
    "script-src 'self'",
    "connect-src 'self'",
    // Images come from codrail only; a page still showing an image stored before hosting (until
    // `codrail products images rehost`) allows https images, and only that page.
    opts.external ? "img-src 'self' https: data:" : "img-src 'self' data:",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { body: body.value, csp };
}

/** The texts the page's script shows, from the same table as the server's (one place), the store's own words included. */
export const clientText = (page: Pick<PublicProduct, 'regionLabel' | 'store' | 'product'>) => ({
  messages: FIELD_MESSAGES,
  regionLabel: page.regionLabel,
  chooseRegion: TEXT.chooseRegion(page.regionLabel),
  chooseCity: TEXT.chooseCity,
  cityHint: TEXT.cityHint,
  cityNone: TEXT.cityNone,
  cityCount: TEXT.cityCount(999).replace('999', '{n}'),
  cityOne: TEXT.cityCount(1),
  cities: TEXT.cities,
  sending: TEXT.sending,
  submit: TEXT.submit,
  errorsTitle: TEXT.errorsTitle,
  rejected: TEXT.rejected,
  unavailable: TEXT.unavailable,
  network: TEXT.network,
  tooMany: TEXT.tooMany(999).replace('999', '{s}'),
  thanks: TEXT.thanks('{name}'),
  received: TEXT.received,
  orderNumber: TEXT.orderNumber,
  product: page.product.name,
  yourOrder: TEXT.yourOrder,
  total: TEXT.total,
  shipTo: TEXT.shipTo,
  next: TEXT.next,
  steps: [TEXT.stepConfirm, TEXT.stepShip(page.store.deliveryTime), TEXT.stepPay('{total}')],
  questions: TEXT.questions,
  whatsappOrder: whatsappLink(page.store.supportPhone, TEXT.whatsappOrder('{n}')),
});

export function landingPage(page: PublicLanding, state: FormState = {}): RenderedPage {
  const rest = page.pictures.slice(1);
  const main = html`${shopBar(page, TEXT.whatsappAsk(page.product.name))}${firstScreen(page)}
${page.product.description && html`<section class="about">${paragraphs(page.product.description)}</section>`}
${page.sections.some((s) => s.type === 'gallery') ? '' : rest.length > 0 && html`<section><div class="gallery">${rest.map((img) => picture(img, img.alt ?? page.product.name, { sizes: THUMB_SIZES }))}</div></section>`}
${page.sections.map((s) => section(s, page))}
<div class="cr-box" id="pedido">${orderForm(
    { action: `/l/${page.slug}`, packs: page.packs, regionLabel: page.regionLabel, regions: page.regions, country: page.store.country, postalCodeRequired: page.postalCodeRequired },
    state,
  )}</div>${stickyBar(page)}`;
  return layout({
    title: page.seoTitle ?? page.title,
    description: page.seoDescription,
    theme: page.theme,
    main,
    data: { landing_page_id: page.id, order_prefix: page.store.orderPrefix, text: clientText(page) },
    script: true,
    external: page.pictures.some((p) => !p.srcset) || page.sections.some((s) => s.image_url && !s.image),
  });
}

/** What the buyer's order is, as the confirmation repeats it: the address as it will be shipped. */
export interface ConfirmedOrder {
  number: string;
  nombre: string;
  product: string;
  pack: string;
  total: string;
  address: { direccion: string; barrio?: string | null | undefined; ciudad: string; departamento: string };
}

/** The confirmation (issue 23 §4): the order number, what was ordered, where it goes, what happens next, whom to write to. */
export function confirmationBody(page: Pick<PublicProduct, 'store'>, order: ConfirmedOrder): Html {
  const wa = whatsappLink(page.store.supportPhone, TEXT.whatsappOrder(order.number));
  const place = [order.address.direccion, order.address.barrio, `${order.address.ciudad}, ${order.address.departamento}`].filter(Boolean);
  return html`<div class="done" role="status"><h1>${TEXT.thanks(order.nombre.split(' ')[0] ?? order.nombre)}</h1>
<p>${TEXT.received}</p><p class="muted">${TEXT.orderNumber}</p><p class="number" data-order-number>${order.number}</p></div>
<div class="recap"><h2>${TEXT.yourOrder}</h2><p data-recap-product><strong>${order.product}</strong> · ${order.pack}</p><p class="total"><span>${TEXT.total}</span><span data-recap-total>${order.total}</span></p>
<h2>${TEXT.shipTo}</h2><p data-recap-address>${place.map((line, i) => (i === 0 ? html`${line}` : html`<br>${line}`))}</p>
<h2>${TEXT.next}</h2><ol class="steps"><li>${TEXT.stepConfirm}</li><li>${TEXT.stepShip(page.store.deliveryTime)}</li><li>${TEXT.stepPay(order.total)}</li></ol>
${wa && html`<a class="cta wa-cta" href="${wa}" rel="noopener">${WA_ICON}${TEXT.questions}</a>`}</div>`;
}

export function confirmationPage(page: PublicLanding, order: ConfirmedOrder): RenderedPage {
  const main = html`${shopBar(page, TEXT.whatsappOrder(order.number))}${confirmationBody(page, order)}`;
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
