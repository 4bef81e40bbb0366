// The cash-on-delivery order form (SPEC 13), one template for the landing page (mode 1, posted to
// the page itself when no script runs) and the embedded checkout (mode 2): Spanish labels with the
// order's own field names, what a phone keyboard needs (autocomplete, inputmode), the limits the
// server enforces as attributes, an error slot per field, and the honeypot.
import { ORDER_FIELD_LIMITS as L } from '../limits.ts';
import { html, type Html } from './html.ts';
import { TEXT } from './page-text.ts';
import type { PublicPack } from '../use-cases/landings/public-landing.use-case.ts';

/** A pack as the form offers it: the buyer-facing pack of the use-case. */
export type FormPack = PublicPack;

export interface FormModel {
  action: string;
  packs: readonly FormPack[];
  regionLabel: string;
  regions: readonly string[];
  country: string;
  postalCodeRequired: boolean;
}

export interface FormState {
  values?: Readonly<Record<string, string | undefined>>;
  errors?: Readonly<Record<string, string>>;
  banner?: string | undefined;
}

const DISTRICT_COUNTRIES = new Set(['PE', 'PA', 'CR']);

function field(
  name: string,
  label: string,
  state: FormState,
  attrs: { type?: string; autocomplete?: string; inputmode?: string; required?: boolean; min?: number; max?: number },
): Html {
  const error = state.errors?.[name];
  return html`<label for="f-${name}">${label}</label>
<input id="f-${name}" name="${name}" type="${attrs.type ?? 'text'}" value="${state.values?.[name] ?? ''}"${attrs.autocomplete && html` autocomplete="${attrs.autocomplete}"`}${attrs.inputmode && html` inputmode="${attrs.inputmode}"`}${attrs.required && html` required`}${attrs.min && html` minlength="${attrs.min}"`}${attrs.max && html` maxlength="${attrs.max}"`} aria-describedby="e-${name}"${error && html` aria-invalid="true"`}>
<p class="cr-err" id="e-${name}" role="alert">${error ?? ''}</p>`;
}

function packOption(p: FormPack, checked: boolean): Html {
  return html`<label class="pack"><input type="radio" name="pack" value="${p.code}"${checked && html` checked`} data-price="${p.price}" data-price-text="${p.priceText}" data-units="${TEXT.unit(p.quantity)}">
<span class="what">${TEXT.unit(p.quantity)}${p.label && html`<span class="badge">${p.label}</span>`}</span>
<span class="price">${p.compareAtText && html`<s>${p.compareAtText}</s>`}${p.priceText}</span></label>`;
}

function regionField(m: FormModel, state: FormState): Html {
  if (m.regions.length === 0)
    return field('departamento', m.regionLabel, state, { autocomplete: 'address-level1', required: true, min: L.departamento.min, max: L.departamento.max });
  const chosen = state.values?.departamento ?? '';
  const error = state.errors?.departamento;
  return html`<label for="f-departamento">${m.regionLabel}</label>
<select id="f-departamento" name="departamento" autocomplete="address-level1" required aria-describedby="e-departamento"${error && html` aria-invalid="true"`}>
<option value="">${TEXT.chooseRegion(m.regionLabel)}</option>${m.regions.map((r) => html`<option${r === chosen && html` selected`}>${r}</option>`)}</select>
<p class="cr-err" id="e-departamento" role="alert">${error ?? ''}</p>`;
}

export function orderForm(m: FormModel, state: FormState = {}): Html {
  const chosen = state.values?.pack ?? m.packs.find((p) => p.isDefault)?.code;
  const total = m.packs.find((p) => p.code === chosen)?.priceText ?? '';
  return html`<form class="cr-form" method="post" action="${m.action}" data-codrail-form data-country="${m.country}" data-city-selector="${m.regions.length > 0 ? '1' : '0'}">
<h2>${TEXT.formTitle}</h2>
<p class="cr-banner" role="alert" data-banner>${state.banner ?? ''}</p>
<fieldset><legend>${TEXT.packsLegend}</legend>${m.packs.map((p) => packOption(p, p.code === chosen))}</fieldset>
<p class="cr-err" id="e-pack" role="alert">${state.errors?.pack ?? ''}</p>
${field('nombre', TEXT.nombre, state, { autocomplete: 'name', required: true, min: L.nombre.min, max: L.nombre.max })}
${field('telefono', TEXT.telefono, state, { type: 'tel', autocomplete: 'tel-national', inputmode: 'tel', required: true, min: L.telefono.min, max: L.telefono.max })}
${regionField(m, state)}
${field('ciudad', TEXT.ciudad, state, { autocomplete: 'address-level2', required: true, min: L.ciudad.min, max: L.ciudad.max })}
${field('direccion', TEXT.direccion, state, { autocomplete: 'street-address', required: true, min: L.direccion.min, max: L.direccion.max })}
${field('barrio', TEXT.barrio, state, { autocomplete: 'address-level3', max: L.barrio.max })}
${m.country === 'MX' && field('colonia', TEXT.colonia, state, { max: L.colonia.max })}
${DISTRICT_COUNTRIES.has(m.country) && field('distrito', TEXT.distrito, state, { max: L.distrito.max })}
${m.postalCodeRequired && field('codigo_postal', TEXT.codigoPostal, state, { autocomplete: 'postal-code', inputmode: 'numeric', required: true, max: L.codigo_postal.max })}
${field('referencia', TEXT.referencia, state, { max: L.referencia.max })}
<div class="cr-hp" aria-hidden="true"><label for="f-website">${TEXT.honeypot}</label><input id="f-website" name="website" tabindex="-1" autocomplete="off"></div>
<p class="total"><span>${TEXT.total}</span><span data-total>${total}</span></p>
<button type="submit">${TEXT.submit}</button>
</form>`;
}
