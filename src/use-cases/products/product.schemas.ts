// Products, their pack ladder and their price floor (MCP-TOOLS.md §6.4, §6.5): inputs and outputs.
import * as v from 'valibot';
import {
  DESCRIPTION_MAX,
  FLOOR_VIOLATION_DAYS,
  IMAGE_ALT_MAX,
  IMAGE_MAX_BYTES,
  MAX_PACK_UNITS,
  MAX_PACKS,
  MAX_PRICE_UPDATES,
  MAX_PRODUCT_IMAGES,
  MAX_QUOTE_UNITS,
  PACK_LABEL_MAX,
  SKU_MAX,
  URL_MAX,
} from '../../limits.ts';
import { cursorInput, limitInput } from '../pagination.ts';
import { booleanInput, integerInput, moneyInput, nameInput, nullableTimestamp, optionalText, pageOf, textInput, timestamp, uuidInput } from '../fields.ts';

const productId = uuidInput('product_id', 'Product id (see list_products).');
const storeId = uuidInput('store_id', 'Store id (see list_stores).');

const sku = optionalText('sku', SKU_MAX, 'Stock-keeping unit, unique in the store; "" removes it.');
const description = optionalText('description', DESCRIPTION_MAX, 'What the product is, for the landing page.', true);

// The scheme is the use-case's rule (https; a URL of an image hosted here is kept whatever the
// base URL's scheme; http from loopback in development), said on the same field. Product images
// and landing sections' images take the same input.
export const imageUrlInput = (field: string, description: string) =>
  v.pipe(
    v.string(`${field} must be a string`),
    v.trim(),
    v.maxLength(URL_MAX, `${field} must be at most ${URL_MAX} characters`),
    v.url(`${field} must be an absolute https URL`),
    v.description(description),
  );

const imageUrl = imageUrlInput('url', 'https URL, fetched once and hosted.');

const alt = optionalText('alt', IMAGE_ALT_MAX, 'What the image shows, for screen readers.');

const images = v.pipe(
  v.array(v.strictObject({ url: imageUrl, alt })),
  v.maxLength(MAX_PRODUCT_IMAGES, `at most ${MAX_PRODUCT_IMAGES} images`),
  v.description('In display order; replaces the list when given.'),
);

const floor = moneyInput('price_floor', 'Anti-fraud minimum unit price: totals below it × units are refused (0: none).');

export const PackInput = v.strictObject({
  quantity: integerInput('quantity', 1, MAX_PACK_UNITS, 'Units in the pack; its code is "<quantity>x" (1x, 2x).'),
  price: moneyInput('price', "Price of the whole pack, in major units of the store's currency."),
  compare_at_price: v.optional(moneyInput('compare_at_price', 'A higher "before" price shown struck through.')),
  min_price: v.optional(moneyInput('min_price', "This pack's own floor (else the store's max discount applies).")),
  label: optionalText('label', PACK_LABEL_MAX, 'A badge such as "Más vendido".'),
  is_default: v.optional(booleanInput('is_default', 'Pre-selected on the landing page; at most one pack.')),
});

const packs = (min: 0 | 1) =>
  v.pipe(
    v.array(PackInput),
    v.minLength(min, 'packs needs at least 1 pack'),
    v.maxLength(MAX_PACKS, `at most ${MAX_PACKS} packs`),
    v.description(`1x/2x/3x…: up to ${MAX_PACKS} packs of distinct quantities, each ≥ price floor × quantity.`),
  );

export const CreateProductInput = v.strictObject({
  store_id: storeId,
  name: nameInput('name', 'Product name.'),
  sku,
  description,
  images: v.optional(images),
  stock: v.optional(integerInput('stock', 0, 1_000_000_000, 'Units on hand (informational; omit if not tracked).')),
  price_floor: v.optional(floor),
  packs: v.optional(packs(0)),
  status: v.optional(v.pipe(v.picklist(['draft', 'active'], 'status must be draft or active'), v.description('draft (default) until it is ready to sell; active sells.')), 'draft'),
});

export const GetProductInput = v.strictObject({ product_id: productId });

export const ListProductsInput = v.strictObject({
  store_id: v.optional(uuidInput('store_id', 'Only this store; omit for every store of the account.')),
  status: v.optional(v.pipe(v.picklist(['draft', 'active', 'archived'], 'status must be draft, active or archived'), v.description('Only products in this status.'))),
  query: v.optional(textInput('query', 1, 100, 'Name or SKU contains this text.')),
  linked: v.optional(booleanInput('linked', 'true: only products linked to the fulfillment platform; false: only unlinked ones.')),
  stock_below: v.optional(integerInput('stock_below', 0, 1_000_000_000, 'Only tracked products with fewer units on hand.')),
  cursor: cursorInput,
  limit: limitInput,
});

export const UpdateProductInput = v.strictObject({
  product_id: productId,
  name: v.optional(nameInput('name', 'New name.')),
  sku,
  description,
  images: v.optional(images),
  status: v.optional(v.pipe(v.picklist(['draft', 'active'], 'status must be draft or active'), v.description('draft or active; archive with archive_product.'))),
});

export const ArchiveProductInput = v.strictObject({
  product_id: productId,
  unpublish_landings: v.optional(booleanInput('unpublish_landings', 'Also take its published landing pages offline (otherwise they block archiving).')),
});

export const DuplicateProductInput = v.strictObject({
  product_id: productId,
  target_store_id: v.optional(uuidInput('target_store_id', 'Store to copy into (default: the same store).')),
  name: v.optional(nameInput('name', 'Name of the copy (default: the same, or "(copia)" added in the same store).')),
  sku,
  copy_packs: v.optional(booleanInput('copy_packs', 'Copy packs and floor when the currencies match (default true).')),
});

export const SetProductStockInput = v.strictObject({
  product_id: productId,
  quantity: integerInput('quantity', 0, 1_000_000_000, 'Absolute units on hand.'),
  reason: optionalText('reason', 200, 'Why, e.g. "restock".'),
});

export const SetProductPacksInput = v.strictObject({ product_id: productId, packs: packs(1) });

export const UpdatePackPricesInput = v.strictObject({
  updates: v.pipe(
    v.array(
      v.strictObject({
        product_id: productId,
        quantity: integerInput('quantity', 1, MAX_PACK_UNITS, 'Which pack: its units (the pack must exist).'),
        price: moneyInput('price', 'New pack price.'),
        compare_at_price: v.optional(moneyInput('compare_at_price', 'New struck-through price, higher than price; 0 removes it.')),
      }),
    ),
    v.minLength(1, 'updates needs at least one price'),
    v.maxLength(MAX_PRICE_UPDATES, `at most ${MAX_PRICE_UPDATES} updates`),
    v.description('Prices of existing packs, all applied or none.'),
  ),
});

export const SetPriceFloorInput = v.strictObject({
  product_id: productId,
  min_unit_price: moneyInput('min_unit_price', 'Minimum price per unit; 0 disables. Refused if a pack would sell below it.'),
});

export const QuoteProductPriceInput = v.strictObject({
  product_id: productId,
  quantity: integerInput('quantity', 1, MAX_QUOTE_UNITS, 'Units the buyer wants.'),
  pack: v.optional(textInput('pack', 2, 5, 'Price with this pack code (e.g. 2x) only; quantity must be a multiple of its units.')),
});

export const ListPriceFloorViolationsInput = v.strictObject({
  store_id: storeId,
  days: v.optional(integerInput('days', 1, FLOOR_VIOLATION_DAYS.max, `Look back this many days for orders (default ${FLOOR_VIOLATION_DAYS.default}).`)),
  cursor: cursorInput,
  limit: limitInput,
});

export const Pack = v.object({
  code: v.pipe(v.string(), v.description('What an order sends as `pack`.')),
  quantity: v.number(),
  price: v.number(),
  price_formatted: v.string(),
  compare_at_price: v.nullable(v.number()),
  min_price: v.nullable(v.number()),
  floor: v.pipe(v.number(), v.description('The lowest total checkout accepts for one of this pack.')),
  label: v.nullable(v.string()),
  is_default: v.boolean(),
});

export const ProductSummary = v.object({
  id: v.string(),
  store_id: v.string(),
  name: v.string(),
  sku: v.nullable(v.string()),
  status: v.picklist(['draft', 'active', 'archived']),
  currency: v.string(),
  price: v.pipe(v.nullable(v.number()), v.description('Price of the default pack (else the smallest); null without packs.')),
  stock: v.nullable(v.number()),
  linked: v.pipe(v.boolean(), v.description('Linked to a fulfillment platform product.')),
  created_at: timestamp('Creation time, ISO-8601 UTC.'),
});

export const Product = v.object({
  ...ProductSummary.entries,
  description: v.nullable(v.string()),
  images: v.pipe(
    v.array(
      v.object({
        url: v.pipe(v.string(), v.description('The largest JPEG of a hosted image (absolute); an image stored before hosting: its URL as given.')),
        id: v.optional(v.pipe(v.string(), v.description('Hosted image id: its files are /img/<id>-<width>.<avif|webp|jpg>.'))),
        alt: v.optional(v.string()),
        width: v.optional(v.pipe(v.number(), v.description('Of the largest hosted file, in pixels.'))),
        height: v.optional(v.number()),
        source: v.optional(v.pipe(v.string(), v.description('The URL a hosted image was fetched from.'))),
      }),
    ),
    v.description('In display order.'),
  ),
  stock_updated_at: nullableTimestamp('When stock was last set.'),
  price_floor: v.pipe(v.number(), v.description('Minimum unit price; 0 = none.')),
  packs: v.array(Pack),
  default_pack: v.nullable(v.string()),
  fulfillment_product_ref: v.nullable(v.string()),
  fulfillment: v.pipe(
    v.object({ product_id: v.nullable(v.string()), variant_id: v.nullable(v.string()), name: v.nullable(v.string()), unlinked_at: v.nullable(v.string()) }),
    v.description('The platform product it is linked to (link_product_to_fulfillment); unlinked_at: pushes refuse it until relinked.'),
  ),
  landing_pages: v.object({ total: v.number(), published: v.number() }),
  updated_at: timestamp('Last change, ISO-8601 UTC.'),
});

export const ProductPage = pageOf(ProductSummary);

export const UpdatedProducts = v.object({ products: v.array(Product) });

export const PriceQuote = v.object({
  product_id: v.string(),
  currency: v.string(),
  quantity: v.pipe(v.number(), v.description('Units quoted.')),
  pack: v.pipe(v.string(), v.description('The pack code checkout uses.')),
  pack_quantity: v.pipe(v.number(), v.description('Units in that pack.')),
  multiplier: v.pipe(v.number(), v.description('How many of the pack: the order quantity.')),
  unit_price: v.pipe(v.number(), v.description('Price of one pack: the order unit_price.')),
  total_price: v.number(),
  total_formatted: v.string(),
  floor_total: v.pipe(v.number(), v.description('The lowest total checkout accepts for this order.')),
  floor_ok: v.boolean(),
  orderable: v.pipe(v.boolean(), v.description('Checkout takes orders for the product now (active, store open).')),
  reason: v.nullable(v.string()),
  order: v.pipe(
    v.object({ pack: v.string(), quantity: v.number(), unit_price: v.number(), total_price: v.number() }),
    v.description('The pricing fields of POST /api/orders/create (or create_order pack and quantity) for this quote.'),
  ),
});

export const FloorViolations = v.object({
  ...pageOf(
    v.object({
      order_id: v.string(),
      order_number: v.number(),
      product_id: v.string(),
      product_name: v.string(),
      pack: v.string(),
      quantity: v.number(),
      total_price: v.number(),
      floor_total: v.number(),
      status: v.string(),
      created_at: v.string(),
    }),
  ).entries,
  packs: v.pipe(
    v.array(v.object({ product_id: v.string(), product_name: v.string(), pack: v.string(), price: v.number(), floor_total: v.number() })),
    v.description('Packs priced below the floor × quantity (first page only).'),
  ),
  currency: v.string(),
});

/** The bytes of an uploaded image (REST: the raw request body; CLI: a file path the shell reads). */
const imageFile = v.pipe(
  v.custom<Uint8Array>((value) => value instanceof Uint8Array, 'file must be the bytes of an image'),
  v.maxLength(IMAGE_MAX_BYTES, `file must be at most ${IMAGE_MAX_BYTES} bytes`),
  v.description(`The image file (a path, or - for standard input): JPEG, PNG, WebP, AVIF or GIF, at most ${IMAGE_MAX_BYTES / (1024 * 1024)} MB.`),
);

export const AddProductImageInput = v.strictObject({
  product_id: productId,
  alt,
  file: imageFile,
});

export const RehostProductImagesInput = v.strictObject({
  store_id: v.optional(uuidInput('store_id', 'Only the products of this store.')),
  product_id: v.optional(uuidInput('product_id', 'Only this product.')),
});

export const HostedImagesReport = v.object({
  products: v.pipe(v.number(), v.description('Products that had images stored as external URLs.')),
  hosted: v.pipe(v.number(), v.description('Images fetched and hosted now.')),
  failed: v.pipe(
    v.array(v.object({ product_id: v.string(), url: v.nullable(v.string()), message: v.string() })),
    v.description('Images left as external URLs, and why; a later run tries them again.'),
  ),
});
