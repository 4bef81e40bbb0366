// CreateOrderInput exactly as the seed's table 2.1: one schema gives the TypeScript type, the
// OpenAPI schema and the 400 details (STYLE). Strings are trimmed before length checks (SPEC 4.1).
import * as v from 'valibot';
import { DEFAULT_PACK, MAX_MONEY_MAJOR, ORDER_FIELD_LIMITS as L, ORDER_QUANTITY } from '../../limits.ts';
import { hasAtMostTwoDecimals } from '../../domain/money.ts';
import { UUID_PATTERN } from '../../ids.ts';
import { cleanText } from '../text-input.ts';

// Free text goes through cleanText: control characters and broken Unicode refused, bidi controls
// dropped, NFC, one line (issue 13 §2).
const text = (field: keyof typeof L, min: number, max: number, description: string) =>
  v.pipe(
    cleanText(field, true),
    v.minLength(min, `${field} must be at least ${min} characters`),
    v.maxLength(max, `${field} must be at most ${max} characters`),
    v.description(description),
  );

const optionalText = (field: keyof typeof L, max: number, description: string) =>
  v.nullish(
    v.pipe(cleanText(field, true), v.maxLength(max, `${field} must be at most ${max} characters`), v.description(description)),
  );

const uuid = (field: string, description: string) =>
  v.pipe(v.string(`${field} must be a string`), v.regex(UUID_PATTERN, `${field} must be a UUID`), v.description(description));

const money = (field: string, description: string) =>
  v.pipe(
    v.number(`${field} must be a number`),
    v.finite(`${field} must be a finite number`),
    v.minValue(0, `${field} must not be negative`),
    v.maxValue(MAX_MONEY_MAJOR, `${field} is out of range (at most ${MAX_MONEY_MAJOR})`),
    v.check(hasAtMostTwoDecimals, `${field} must have at most 2 decimals`),
    v.description(description),
  );

/** How many packs an order takes (seed 8: 1..10); shared by every order input. */
export const packQuantity = (description: string) =>
  v.pipe(
    v.number('quantity must be a number'),
    v.integer('quantity must be an integer'),
    v.minValue(ORDER_QUANTITY.min, `quantity must be at least ${ORDER_QUANTITY.min}`),
    v.maxValue(ORDER_QUANTITY.max, `quantity must be at most ${ORDER_QUANTITY.max}`),
    v.description(description),
  );

export const CreateOrderInputSchema = v.pipe(
  v.object(
    {
      landing_page_id: v.optional(uuid('landing_page_id', 'Public landing page (mode 1).')),
      store_id: v.optional(uuid('store_id', 'Store id (mode 2, with a publishable key).')),
      product_id: v.optional(uuid('product_id', 'Product id (mode 2).')),
      nombre: text('nombre', L.nombre.min, L.nombre.max, 'Buyer name.'),
      telefono: text('telefono', L.telefono.min, L.telefono.max, "Buyer phone; must be a possible number of the store's country."),
      departamento: text('departamento', L.departamento.min, L.departamento.max, 'Department / region / state.'),
      ciudad: text('ciudad', L.ciudad.min, L.ciudad.max, 'City.'),
      direccion: text('direccion', L.direccion.min, L.direccion.max, 'Delivery address.'),
      barrio: optionalText('barrio', L.barrio.max, 'Neighbourhood.'),
      referencia: optionalText('referencia', L.referencia.max, 'Delivery reference.'),
      distrito: optionalText('distrito', L.distrito.max, 'Third administrative level, for PE/CR/PA.'),
      colonia: optionalText('colonia', L.colonia.max, 'Sub-locality, for MX.'),
      codigo_postal: optionalText('codigo_postal', L.codigo_postal.max, 'Postal code; required for MX and ES.'),
      pack: v.optional(
        v.pipe(
          v.string('pack must be a string'),
          v.trim(),
          v.minLength(L.pack.min, 'pack must not be empty'),
          v.maxLength(L.pack.max, `pack must be at most ${L.pack.max} characters`),
          v.description('Product pack code, like `1x` or `2x`.'),
        ),
        DEFAULT_PACK,
      ),
      quantity: v.optional(packQuantity('Number of packs.'), ORDER_QUANTITY.default),
      unit_price: money('unit_price', "Price of one pack, in major units of the store's currency."),
      total_price: money('total_price', 'Total to collect on delivery; subject to the anti-fraud floor.'),
      website: v.optional(v.pipe(v.unknown(), v.description('Honeypot: a real checkout leaves it empty or absent.'))),
    },
    'The body must be a JSON object',
  ),
  v.description('Either `landing_page_id`, or both `store_id` and `product_id`. Unknown fields are ignored.'),
);

export type CreateOrderInput = v.InferOutput<typeof CreateOrderInputSchema>;
