import type { Generated } from 'kysely';
import type { PushPolicy } from '../../domain/push-policy.ts';
import type { ConfirmationMode } from '../../domain/confirmation.ts';

export type { PushPolicy };

export interface StoresTable {
  id: string;
  account_id: string;
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** ISO 4217. */
  currency: string;
  max_discount_pct: number;
  /** JSON array of allowed checkout hosts (exact or `*.example.com`). */
  allowed_domains: string;
  /** IANA timezone: date filters and reports are read in it (MCP-TOOLS.md §5.6). */
  timezone: string;
  /** E.164. */
  support_phone: string | null;
  /** Shown before order numbers, e.g. `TD-1001`. */
  order_prefix: string | null;
  /** The store's words on the buyer's page: how long delivery takes, e.g. "Entrega en 2 a 5 días hábiles". */
  delivery_time: Generated<string | null>;
  /** The store's words on the buyer's page: its guarantee, e.g. "Garantía de 30 días". */
  guarantee: Generated<string | null>;
  /** When a live order's push is released: at creation, or once the order is confirmed. */
  push_policy: Generated<PushPolicy>;
  /** Whether the buyer is asked to confirm each live order on WhatsApp (issue 25). */
  confirmation: Generated<ConfirmationMode>;
  /** Minutes without an answer before the reminder, and again before the call queue. */
  confirmation_minutes: Generated<number>;
  /** Risk score above which a pending order's push waits for a confirmation; null: never. */
  risk_hold: Generated<number | null>;
  created_at: string;
  updated_at: string;
  /** Archived stores take no orders; their data is kept. */
  archived_at: Generated<string | null>;
  archive_reason: string | null;
}

export type ProductStatus = 'active' | 'draft' | 'archived';

export interface ProductsTable {
  id: string;
  store_id: string;
  name: string;
  sku: string | null;
  status: ProductStatus;
  fulfillment_product_ref: string | null;
  fulfillment_variant_ref: string | null;
  /** The platform's name for the linked product, as verified when linking. */
  fulfillment_product_name: string | null;
  /** Set by unlink_product_from_fulfillment: pushes refuse the product until it is linked again. */
  fulfillment_unlinked_at: string | null;
  description: string | null;
  /** JSON array, in display order, of hosted images `{id, alt?, width, height, source?}` and legacy external ones `{url, alt?}` (src/use-cases/products/images.ts). */
  images: string;
  /** On-hand units; null = not tracked. Informational: checkout does not decrement it. */
  stock: number | null;
  stock_note: string | null;
  stock_updated_at: string | null;
  /** The anti-fraud minimum unit price (the floor), minor units; 0 = none. */
  min_unit_price_minor: number;
  created_at: string;
  updated_at: string;
}

export interface ProductPacksTable {
  id: string;
  product_id: string;
  /** `<units>x`, the code orders send (`1x`, `2x`). */
  code: string;
  units: number;
  price_minor: number;
  /** The pack's own floor (SPEC 4.1 step 8), else the store's maximum discount applies. */
  min_price_minor: number | null;
  compare_at_price_minor: number | null;
  label: string | null;
  is_default: number;
  position: number;
}

export interface LandingPagesTable {
  id: string;
  store_id: string;
  product_id: string;
  slug: string;
  title: string;
  published: number;
  /** JSON array of sections `{type, heading?, body?, image_url?, items?}`, in page order. */
  sections: string;
  seo_title: string | null;
  seo_description: string | null;
  /** JSON `{primary_color?, font?}`. */
  theme: string;
  published_at: string | null;
  created_at: string;
  updated_at: string;
}

export type BlockKind = 'phone' | 'ip';

export interface BlockListTable {
  store_id: string;
  kind: BlockKind;
  value: string;
  reason: string | null;
  created_at: string;
}

/**
 * A store's next order number (issue 26: kept apart from the store's configuration, which is read on
 * every order and cached, while this moves with each one). Gapless because it moves only inside the
 * order transaction; a store without a row takes FIRST_ORDER_NUMBER first.
 */
export interface StoreOrderNumbersTable {
  store_id: string;
  next_order_number: number;
}
