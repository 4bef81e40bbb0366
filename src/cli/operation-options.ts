// Argv for the derived account commands (STYLE: the CLI shell adds only argv parsing): text → the
// typed values an operation's JSON Schema asks for, and the few options that keep the SPEC 9
// spellings (`--store`, `--pack CODE:PRICE[:MIN_PRICE]`, `--domain` repeated).
import { readFileSync } from 'node:fs';
import { AppError } from '../errors.ts';
import { isNumberText, scalarFromText, type JsonSchemaLike } from '../domain/text-values.ts';
import type { Operation } from '../use-cases/operations/operation.ts';

export type JsonSchema = JsonSchemaLike;

const usage = (field: string, message: string) => new AppError('invalid_input', 'Invalid data', [{ field, message }]);

/** `@file` reads a file and `@-` standard input, as curl does; anything else is the text itself. */
function jsonText(field: string, text: string): unknown {
  let source = text;
  try {
    if (text === '@-') source = readFileSync(0, 'utf8');
    else if (text.startsWith('@')) source = readFileSync(text.slice(1), 'utf8');
  } catch (error) {
    throw usage(field, `cannot read ${text.slice(1)}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(source) as unknown;
  } catch {
    throw usage(field, 'is not valid JSON (give JSON text, @file or @- for standard input)');
  }
}

/** One argv value as the schema types it; objects (and lists of them) are JSON text, @file or @-. */
export function coerce(field: string, schema: JsonSchema, text: string): unknown {
  if (schema.type === 'object' || (schema.type === 'array' && schema.items?.type === 'object')) return jsonText(field, text);
  return scalarFromText(schema, text);
}

/**
 * A pack as `products create --pack` takes it (SPEC 9): `CODE:PRICE[:MIN_PRICE]` where CODE is `2x`
 * or `2`, or a JSON object with the full pack (`{"quantity":2,"price":159900,"label":"Más vendido"}`).
 */
export function parsePackSpec(spec: string): unknown {
  if (spec.trim().startsWith('{')) return jsonText('pack', spec);
  const [code, price, min, ...rest] = spec.split(':');
  const quantity = /^\s*(\d{1,3})x?\s*$/i.exec(code ?? '')?.[1];
  if (!quantity || price === undefined || rest.length > 0) throw usage('pack', `"${spec}" is not CODE:PRICE[:MIN_PRICE], e.g. 2x:159900`);
  const num = (s: string) => (isNumberText(s) ? Number(s) : s);
  return { quantity: Number(quantity), price: num(price), ...(min !== undefined && { min_price: num(min) }) };
}

/** `products prices update --price PRODUCT_ID:QUANTITY:PRICE[:COMPARE_AT]`, or a JSON object. */
export function parsePriceSpec(spec: string): unknown {
  if (spec.trim().startsWith('{')) return jsonText('price', spec);
  const [productId, quantity, price, compareAt, ...rest] = spec.split(':');
  if (!productId || quantity === undefined || price === undefined || rest.length > 0) throw usage('price', `"${spec}" is not PRODUCT_ID:QUANTITY:PRICE[:COMPARE_AT]`);
  const num = (s: string) => (isNumberText(s) ? Number(s) : s);
  return { product_id: productId, quantity: num(quantity.replace(/x$/i, '')), price: num(price), ...(compareAt !== undefined && { compare_at_price: num(compareAt) }) };
}

export interface OptionOverride {
  /** Commander flag with its value placeholder, e.g. `--store <id>`. */
  flag: string;
  /** Repeatable: every occurrence is one array item. */
  repeat?: boolean;
  /** Text → one value (or one item when repeatable). */
  parse?: (text: string) => unknown;
}

/** The SPEC 9 spellings, by operation and input field. */
export const CLI_OVERRIDES: Readonly<Record<string, Readonly<Record<string, OptionOverride>>>> = {
  create_store: { domains: { flag: '--domain <host>', repeat: true }, max_discount_pct: { flag: '--max-discount <pct>' } },
  update_store: { max_discount_pct: { flag: '--max-discount <pct>' } },
  list_products: { store_id: { flag: '--store <id>' } },
  create_product: { store_id: { flag: '--store <id>' }, packs: { flag: '--pack <CODE:PRICE[:MIN_PRICE]>', repeat: true, parse: parsePackSpec } },
  set_product_packs: { packs: { flag: '--pack <CODE:PRICE[:MIN_PRICE]>', repeat: true, parse: parsePackSpec } },
  update_pack_prices: { updates: { flag: '--price <PRODUCT_ID:QUANTITY:PRICE[:COMPARE_AT]>', repeat: true, parse: parsePriceSpec } },
  list_price_floor_violations: { store_id: { flag: '--store <id>' } },
  rehost_product_images: { store_id: { flag: '--store <id>' }, product_id: { flag: '--product <id>' } },
  list_landing_pages: { store_id: { flag: '--store <id>' }, product_id: { flag: '--product <id>' } },
  create_landing_page: { store_id: { flag: '--store <id>' }, product_id: { flag: '--product <id>' } },
  update_landing_page: { product_id: { flag: '--product <id>' } },
  list_api_keys: { store_id: { flag: '--store <id>' } },
  create_publishable_key: { allowed_domains: { flag: '--domain <host>', repeat: true }, allowed_products: { flag: '--product <id>', repeat: true } },
  create_secret_key: { scopes: { flag: '--scope <scope>', repeat: true } },
  create_webhook_endpoint: { event_types: { flag: '--event <type>', repeat: true } },
  update_webhook_endpoint: { event_types: { flag: '--event <type>', repeat: true } },
  // The spelling: `codrail webhooks replay --event ID | --since TIME`.
  replay_webhook_events: { event_id: { flag: '--event <id>' }, endpoint_id: { flag: '--endpoint <id>' } },
  update_api_key: { allowed_domains: { flag: '--domain <host>', repeat: true }, allowed_products: { flag: '--product <id>', repeat: true } },
};

type Operations = readonly Operation[];
const account = async (): Promise<Operations> => (await import('../use-cases/operations/account.operations.ts')).accountOperations;
const orders = async (): Promise<Operations> => (await import('../use-cases/operations/orders.operations.ts')).orderOperations;
const fulfillment = async (): Promise<Operations> => (await import('../use-cases/operations/fulfillment.operations.ts')).fulfillmentOperations;
const products = async (): Promise<Operations> => {
  const m = await import('../use-cases/operations/products.operations.ts');
  return [...m.productOperations, ...m.priceOperations, ...m.productImageOperations];
};
const stores = async (): Promise<Operations> => {
  const m = await import('../use-cases/operations/stores.operations.ts');
  return [...m.storeOperations, ...m.domainOperations, ...m.blockListOperations];
};
/** Several modules' operations, in the order given. */
const all =
  (...loads: (() => Promise<Operations>)[]) =>
  async (): Promise<Operations> =>
    (await Promise.all(loads.map((load) => load()))).flat();

/**
 * The modules that declare each group's derived commands (an operation's group is the first word
 * of its `cli`; fulfillment.operations.ts declares some under `orders` and `products`), so a
 * command line loads only the use-cases its group reaches: `codrail orders …` does not pay for
 * landings, images and WhatsApp (issue 26 §3). Listed in the order of OPERATIONS, which
 * test/cli/operation-groups.test.ts checks, with every operation found under its group.
 */
export const GROUP_OPERATIONS: Readonly<Record<string, () => Promise<Operations>>> = {
  account,
  orders: all(orders, fulfillment),
  fulfillment,
  products: all(fulfillment, products),
  landings: async () => (await import('../use-cases/operations/landings.operations.ts')).landingOperations,
  whatsapp: async () => (await import('../use-cases/operations/whatsapp.operations.ts')).whatsappOperations,
  geo: async () => (await import('../use-cases/operations/geo.operations.ts')).geoOperations,
  stores,
  keys: async () => (await import('../use-cases/operations/keys.operations.ts')).keyOperations,
  webhooks: async () => (await import('../use-cases/operations/webhooks.operations.ts')).webhookOperations,
};

/** The command groups the derived commands live in: registered up front so `codrail --help` lists them. */
export const OPERATION_GROUPS: Readonly<Record<string, string>> = {
  account: "the account a secret key or --account names: get (its stores, scopes, limits)",
  stores: 'stores: one country and currency each; domains, archive',
  products: 'products, their images, pack ladder, prices, price floor, stock, quotes',
  landings: 'landing pages: sections, SEO, theme, publish (public page /l/<slug>)',
  keys: 'API keys: publishable (checkouts) and secret (server to server)',
  geo: 'countries, regions, cities, city canonicalization, phone numbers',
  orders: 'orders: list, show, search, resolve-city, set-status, update-buyer, cancel, note, events, push, push-confirmed, sync',
  fulfillment: 'fulfillment push: list, replay, sync, connection (per-store credentials), products (platform catalog), and a local platform simulator',
  whatsapp: "WhatsApp notifications to buyers: a store's settings and templates, previews, sends, message statuses, and a local Cloud API simulator",
  webhooks: "signed events to the seller's own systems: endpoints (add, list, rotate-secret, disable, enable, remove, test), deliveries, events, replay",
};
