// The buyer's address-correction page (issue 25): one small form, no script, the order's address as
// it will be shipped filled in; after sending, what was saved and that the order is confirmed. Same
// stylesheet and Content-Security-Policy as the landing pages, in Spanish like every buyer page.
import type { FormState } from './order-form.ts';
import { html, type Html } from './html.ts';
import { layout, type RenderedPage } from './landing.page.ts';
import { TEXT } from './page-text.ts';
import { ORDER_FIELD_LIMITS as L } from '../limits.ts';
import type { CorrectionView } from '../use-cases/orders/correction.use-case.ts';
import type { OrderRow } from '../db/queries/orders.queries.ts';

export const CORRECTION_TEXT = {
  title: (n: string) => `Corrige la dirección de tu pedido ${n}`,
  intro: 'Revisa cada dato: así lo llevará el mensajero. Al guardar, tu pedido queda confirmado.',
  save: 'Guardar y confirmar mi pedido',
  done: (n: string) => `¡Listo! Tu pedido ${n} quedó confirmado`,
  shipTo: 'Lo enviamos a',
  review: 'Revisaremos tu ciudad antes de enviarlo; si hace falta te escribimos.',
  goneTitle: 'Este enlace ya no sirve',
  onItsWayTitle: 'Tu pedido ya va en camino',
  onItsWay: 'La transportadora ya tiene tu pedido, así que la dirección no se puede cambiar aquí. Respóndenos por WhatsApp y te ayudamos.',
  gone: 'El enlace para corregir la dirección se usa una sola vez y vence a las 48 horas. Si necesitas otro cambio, respóndenos por WhatsApp.',
} as const;

function input(name: string, label: string, state: FormState, opts: { required?: boolean; max: number; autocomplete?: string }): Html {
  const error = state.errors?.[name];
  return html`<label for="f-${name}">${label}</label>
<input id="f-${name}" name="${name}" value="${state.values?.[name] ?? ''}" maxlength="${opts.max}"${opts.required && html` required`}${opts.autocomplete && html` autocomplete="${opts.autocomplete}"`} aria-describedby="e-${name}"${error && html` aria-invalid="true"`}>
<p class="cr-err" id="e-${name}" role="alert">${error ?? ''}</p>`;
}

export function correctionPage(view: CorrectionView, action: string, state: FormState = {}): RenderedPage {
  const values = state.values ?? {};
  const region = values.departamento ?? '';
  const regionError = state.errors?.departamento;
  const regionField =
    view.regions.length > 0
      ? html`<label for="f-departamento">${view.regionLabel}</label>
<select id="f-departamento" name="departamento" required aria-describedby="e-departamento"${regionError && html` aria-invalid="true"`}>${view.regions.map((r) => html`<option${r === region && html` selected`}>${r}</option>`)}</select>
<p class="cr-err" id="e-departamento" role="alert">${regionError ?? ''}</p>`
      : input('departamento', view.regionLabel, state, { required: true, max: L.departamento.max, autocomplete: 'address-level1' });
  const main = html`<div class="cr-box"><form class="cr-form" method="post" action="${action}">
<h1>${CORRECTION_TEXT.title(view.number)}</h1>
<p>${CORRECTION_TEXT.intro}</p>
<p class="cr-banner" role="alert">${state.banner ?? ''}</p>
${regionField}
${input('ciudad', TEXT.ciudad, state, { required: true, max: L.ciudad.max, autocomplete: 'address-level2' })}
${input('direccion', TEXT.direccion, state, { required: true, max: L.direccion.max, autocomplete: 'street-address' })}
${input('barrio', TEXT.barrio, state, { max: L.barrio.max, autocomplete: 'address-level3' })}
${view.store.country === 'MX' && input('colonia', TEXT.colonia, state, { max: L.colonia.max })}
${view.postalCodeRequired && input('codigo_postal', TEXT.codigoPostal, state, { required: true, max: L.codigo_postal.max, autocomplete: 'postal-code' })}
${input('referencia', TEXT.referencia, state, { max: L.referencia.max })}
<button type="submit">${CORRECTION_TEXT.save}</button>
</form></div>`;
  return layout({ title: CORRECTION_TEXT.title(view.number), main, script: false });
}

/** The form's first values: the order's address as it will be shipped. */
export const correctionValues = (o: OrderRow): Record<string, string> => ({
  departamento: o.departamento,
  ciudad: o.ciudad,
  direccion: o.direccion,
  barrio: o.barrio ?? '',
  referencia: o.referencia ?? '',
  colonia: o.colonia ?? '',
  codigo_postal: o.codigo_postal ?? '',
});

export function correctedPage(number: string, o: OrderRow): RenderedPage {
  const place = [o.direccion, o.barrio, `${o.ciudad}, ${o.departamento}`].filter(Boolean);
  const main = html`<div class="done" role="status"><h1>${CORRECTION_TEXT.done(number)}</h1></div>
<div class="recap"><h2>${CORRECTION_TEXT.shipTo}</h2><p data-recap-address>${place.map((line, i) => (i === 0 ? html`${line}` : html`<br>${line}`))}</p>
${o.needs_review === 1 && html`<p>${CORRECTION_TEXT.review}</p>`}</div>`;
  return layout({ title: CORRECTION_TEXT.done(number), main, script: false });
}

export function correctionGonePage(why: 'invalid' | 'on_its_way' = 'invalid'): RenderedPage {
  const [title, text] = why === 'on_its_way' ? [CORRECTION_TEXT.onItsWayTitle, CORRECTION_TEXT.onItsWay] : [CORRECTION_TEXT.goneTitle, CORRECTION_TEXT.gone];
  return layout({ title, main: html`<div class="done"><h1>${title}</h1><p>${text}</p></div>`, script: false });
}
