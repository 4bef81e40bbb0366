import type { Generated } from 'kysely';

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
  /** Next per-store order number; gapless because it moves only inside the order transaction. */
  next_order_number: number;
  created_at: string;
  archived_at: Generated<string | null>;
}

export type ProductStatus = 'active' | 'draft' | 'archived';

export interface ProductsTable {
  id: string;
  store_id: string;
  name: string;
  sku: string | null;
  status: ProductStatus;
  fulfillment_product_ref: string | null;
  created_at: string;
}

export interface ProductPacksTable {
  id: string;
  product_id: string;
  /** Like `1x`, `2x`. */
  code: string;
  units: number;
  price_minor: number;
  min_price_minor: number | null;
  position: number;
}

export interface LandingPagesTable {
  id: string;
  store_id: string;
  product_id: string;
  slug: string;
  title: string;
  published: number;
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
