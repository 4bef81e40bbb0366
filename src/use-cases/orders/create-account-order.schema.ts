// The account surfaces' order input (MCP create_order, MCP-TOOLS.md §6.7 row 37): no price field,
// the price comes from the pack (§5.5); the buyer is one object; an idempotency key is required (§5.11).
import * as v from 'valibot';
import { DEFAULT_PACK, IDEMPOTENCY_KEY_MAX, ORDER_FIELD_LIMITS as L, ORDER_QUANTITY } from '../../limits.ts';
import { uuidInput } from '../validate.ts';
import { optionalText as fieldText } from '../fields.ts';
import { cleanText } from '../text-input.ts';
import { packQuantity } from './create-order.schema.ts';

// The buyer's text follows the one rule here too (issue 13 §2, issue 19 §3), so the schema an
// assistant is held to refuses what createOrder would.
const text = (field: keyof typeof L, min: number, max: number, description: string) =>
  v.pipe(
    cleanText(field, true),
    v.minLength(min, `${field} must be at least ${min} characters`),
    v.maxLength(max, `${field} must be at most ${max} characters`),
    v.description(description),
  );

const optionalText = (field: keyof typeof L, max: number, description: string) =>
  v.optional(v.pipe(cleanText(field, true), v.maxLength(max, `${field} must be at most ${max} characters`), v.description(description)));

export const BuyerSchema = v.pipe(
  v.strictObject({
    nombre: text('nombre', L.nombre.min, L.nombre.max, 'Buyer full name.'),
    telefono: text('telefono', L.telefono.min, L.telefono.max, "National or E.164, valid for the store's country."),
    departamento: text('departamento', L.departamento.min, L.departamento.max, 'Region: departamento / estado / provincia.'),
    ciudad: text('ciudad', L.ciudad.min, L.ciudad.max, 'City, canonicalized (see canonicalize_city).'),
    direccion: text('direccion', L.direccion.min, L.direccion.max, 'Delivery address.'),
    barrio: optionalText('barrio', L.barrio.max, 'Neighbourhood.'),
    referencia: optionalText('referencia', L.referencia.max, 'Delivery reference, e.g. "casa azul".'),
    distrito: optionalText('distrito', L.distrito.max, 'Third administrative level, for PE, CR and PA.'),
    colonia: optionalText('colonia', L.colonia.max, 'Sub-locality, for MX.'),
    codigo_postal: optionalText('codigo_postal', L.codigo_postal.max, 'Postal code; required for MX and ES.'),
  }),
  v.description('Who receives the parcel and pays on delivery.'),
);

/** Like add_order_note's text (multi-line, ≤ 1000). */
const optionalNote = fieldText('notes', 1000, 'First internal note, e.g. a call outcome.', true);

export const CreateAccountOrderSchema = v.strictObject({
  store_id: uuidInput('store_id', 'Store id (from get_account).'),
  product_id: uuidInput('product_id', 'Product id of that store.'),
  pack: v.optional(
    v.pipe(
      cleanText('pack', true),
      v.minLength(L.pack.min, 'pack must not be empty'),
      v.maxLength(L.pack.max, `pack must be at most ${L.pack.max} characters`),
      v.description(`Pack code: 1x, 2x, 3x… (default ${DEFAULT_PACK}).`),
    ),
  ),
  quantity: v.optional(packQuantity(`Number of packs (default ${ORDER_QUANTITY.default}).`)),
  buyer: BuyerSchema,
  landing_page_id: v.optional(uuidInput('landing_page_id', 'The landing page the sale came from.')),
  notes: optionalNote,
  idempotency_key: v.pipe(
    v.string('idempotency_key must be a string'),
    v.regex(/^[\x21-\x7e]+$/, 'idempotency_key must be printable ASCII without spaces'),
    v.minLength(1, 'idempotency_key must not be empty'),
    v.maxLength(IDEMPOTENCY_KEY_MAX, `idempotency_key must be at most ${IDEMPOTENCY_KEY_MAX} characters`),
    v.description('Unique per order; a retry with it returns the same order.'),
  ),
});

export type CreateAccountOrderInput = v.InferOutput<typeof CreateAccountOrderSchema>;
