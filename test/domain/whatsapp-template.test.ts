// WhatsApp texts read well (issue 25 §5): a value that ends with a full stop ("Bogotá, D.C.") before
// the template's own full stop is written once, in the text the buyer reads and in the Cloud API
// template's body parameters alike; everything else is left as the seller wrote it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_TEMPLATES, renderTemplate, templateParameters } from '../../src/domain/whatsapp-template.ts';
import { CONFIRMATION_TEMPLATES } from '../../src/domain/confirmation.ts';

const values = { nombre: 'Ana', producto: 'Faja', total: '$ 89.900', ciudad: 'Bogotá, D.C.', direccion: 'Calle 10 # 4-20', tracking: 'G-1' };

test('a city ending with a full stop before the template’s full stop is written with one', () => {
  assert.equal(renderTemplate(DEFAULT_TEMPLATES.order_confirmed, values), '¡Ana, tu pedido de Faja está confirmado! Pronto sale hacia Bogotá, D.C.');
  assert.deepEqual(templateParameters(DEFAULT_TEMPLATES.order_confirmed, values), ['Ana', 'Faja', 'Bogotá, D.C']);
});

test('a value keeps its full stop where the text goes on with something else, and other values are untouched', () => {
  assert.equal(renderTemplate('Lo enviamos a {ciudad} y pagas al recibirlo.', values), 'Lo enviamos a Bogotá, D.C. y pagas al recibirlo.');
  assert.equal(renderTemplate('Hola {nombre}. Total {total}.', values), 'Hola Ana. Total $ 89.900.');
  assert.deepEqual(templateParameters('{ciudad}, {nombre}.', values), ['Bogotá, D.C.', 'Ana']);
  assert.equal(renderTemplate('{precio} y {ciudad}', values), '{precio} y Bogotá, D.C.', 'an unknown placeholder stays as written');
});

test('the confirmation request shows product, total and the address as it will be shipped, ending with one question mark', () => {
  const text = renderTemplate(CONFIRMATION_TEMPLATES.confirmation_request, values);
  assert.equal(text, 'Hola Ana, para enviar tu pedido necesitamos tu confirmación: Faja por $ 89.900, pago contra entrega, a Calle 10 # 4-20, Bogotá, D.C.. ¿Lo confirmas?'.replace('D.C..', 'D.C.'));
  assert.doesNotMatch(text, /\.\./);
});
