// Stores (MCP-TOOLS.md §6.2, §6.3 domains): inputs and outputs of the store operations.
import * as v from 'valibot';
import { PUSH_POLICIES } from '../../domain/push-policy.ts';
import { CONFIRMATION_MODES } from '../../domain/confirmation.ts';
import { DEFAULT_MAX_DISCOUNT_PCT, MAX_DISCOUNT_PCT_RANGE, MAX_STORE_DOMAINS, STORE_TRUST_MAX } from '../../limits.ts';
import { cursorInput, limitInput } from '../pagination.ts';
import { countryInput, currencyInput, domainInput, integerInput, nameInput, nullableTimestamp, optionalText, pageOf, timestamp, timezoneInput, uuidInput } from '../fields.ts';
import { cleanText } from '../text-input.ts';

const storeId = uuidInput('store_id', 'Store id (see list_stores).');

const orderPrefix = v.pipe(
  v.string('order_prefix must be a string'),
  v.trim(),
  v.toUpperCase(),
  v.regex(/^(?:[A-Z0-9][A-Z0-9-]{0,9})?$/, 'order_prefix is up to 10 letters, digits and dashes, e.g. TD-'),
  v.description('e.g. "TD-" makes TD-1001; up to 10 letters, digits, dashes; "" removes it.'),
);
const supportPhone = v.pipe(
  cleanText('support_phone', true),
  v.maxLength(20, 'support_phone must be at most 20 characters'),
  v.description("Buyers' phone line in the store's country; \"\" removes it."),
);
const deliveryTime = optionalText('delivery_time', STORE_TRUST_MAX, 'Shown to buyers, e.g. "Entrega en 2 a 5 días hábiles"; "" removes it.');
const guarantee = optionalText('guarantee', STORE_TRUST_MAX, 'Shown to buyers, e.g. "Garantía de 30 días"; "" removes it.');
const maxDiscount = integerInput(
  'max_discount_pct',
  MAX_DISCOUNT_PCT_RANGE.min,
  MAX_DISCOUNT_PCT_RANGE.max,
  `Largest discount off a pack price without min_price (default ${DEFAULT_MAX_DISCOUNT_PCT}).`,
);

export const CreateStoreInput = v.strictObject({
  name: nameInput('name', 'Store name.'),
  country: countryInput('ISO 3166-1 alpha-2 (see list_countries); fixed once it has orders.'),
  currency: v.optional(currencyInput("ISO 4217 currency; default: the country's (see list_countries).")),
  timezone: v.optional(timezoneInput("IANA timezone for dates and reports; default: the country's.")),
  support_phone: v.optional(supportPhone),
  order_prefix: v.optional(orderPrefix),
  delivery_time: deliveryTime,
  guarantee,
  domains: v.optional(
    v.pipe(v.array(domainInput('Host name, e.g. shop.example.com or *.example.com.')), v.maxLength(MAX_STORE_DOMAINS), v.description('Allowed checkout domains (add more with add_store_domain).')),
  ),
  max_discount_pct: v.optional(maxDiscount),
});

export const GetStoreInput = v.strictObject({ store_id: storeId });

export const ListStoresInput = v.strictObject({
  status: v.optional(v.pipe(v.picklist(['active', 'archived'], 'status must be active or archived'), v.description('Only active or only archived stores.'))),
  country: v.optional(countryInput('Only stores of this country.')),
  cursor: cursorInput,
  limit: limitInput,
});

export const UpdateStoreInput = v.strictObject({
  store_id: storeId,
  name: v.optional(nameInput('name', 'New name.')),
  timezone: v.optional(timezoneInput('IANA timezone, e.g. America/Bogota.')),
  support_phone: v.optional(supportPhone),
  order_prefix: v.optional(orderPrefix),
  delivery_time: deliveryTime,
  guarantee,
  max_discount_pct: v.optional(maxDiscount),
  country: v.optional(countryInput('New country; refused once the store has orders.')),
  currency: v.optional(currencyInput('New ISO 4217 currency; refused once the store has orders. Prices keep their numbers.')),
  push_policy: v.optional(v.pipe(v.picklist(PUSH_POLICIES, 'push_policy must be on_create or on_confirm'), v.description('Push orders to fulfillment when created, or once confirmed.'))),
  confirmation: v.optional(v.pipe(v.picklist(CONFIRMATION_MODES, 'confirmation must be off or whatsapp'), v.description('whatsapp: buyers confirm with buttons.'))),
  confirmation_minutes: v.optional(integerInput('confirmation_minutes', 1, 10_080, 'Wait before the reminder, then the call queue.')),
  risk_hold: v.optional(integerInput('risk_hold', 0, 100, 'Hold pushes above this risk until confirmed; 100 never.')),
});

export const ArchiveStoreInput = v.strictObject({
  store_id: storeId,
  reason: optionalText('reason', 500, 'Why, for the record.'),
});

export const StoreDomainInput = v.strictObject({
  store_id: storeId,
  domain: domainInput('Host without scheme or path, e.g. shop.example.com; *.example.com adds subdomains.'),
});

export const StoreSummary = v.object({
  id: v.string(),
  name: v.string(),
  country: v.string(),
  currency: v.string(),
  timezone: v.string(),
  status: v.picklist(['active', 'archived']),
  domains: v.array(v.string()),
  created_at: timestamp('Creation time, ISO-8601 UTC.'),
});

export const Store = v.object({
  ...StoreSummary.entries,
  account_id: v.string(),
  support_phone: v.nullable(v.string()),
  order_prefix: v.nullable(v.string()),
  delivery_time: v.nullable(v.string()),
  guarantee: v.nullable(v.string()),
  max_discount_pct: v.number(),
  push_policy: v.pipe(v.picklist(PUSH_POLICIES), v.description('on_create: orders are pushed when created; on_confirm: once confirmed.')),
  confirmation: v.pipe(v.picklist(CONFIRMATION_MODES), v.description('whatsapp: each live order asks the buyer to confirm, cancel or correct the address.')),
  confirmation_minutes: v.pipe(v.number(), v.description('Minutes without an answer before the reminder, and again before the call queue.')),
  risk_hold: v.pipe(v.nullable(v.number()), v.description("Pending orders with a return risk above this wait for a confirmation before the push; null: never.")),
  archived_at: nullableTimestamp('When it was archived.'),
  archive_reason: v.nullable(v.string()),
  updated_at: timestamp('Last change, ISO-8601 UTC.'),
  counts: v.object({
    products: v.number(),
    landing_pages: v.number(),
    published_landing_pages: v.number(),
    active_keys: v.number(),
    orders: v.number(),
  }),
  fulfillment: v.pipe(
    v.object({ connected: v.boolean(), source: v.picklist(['store', 'default', 'none']), credential: v.nullable(v.string()) }),
    v.description("Where the store's orders are pushed: with its own credentials (masked), the server's default account, or none yet."),
  ),
});

export const StorePage = pageOf(StoreSummary);
