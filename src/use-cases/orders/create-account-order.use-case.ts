// An order placed by an account caller (MCP create_order, MCP-TOOLS.md §6.7 row 37). The price is
// never an input (§5.5, anti-fraud): unit price = the pack's price, total = price × quantity. Every
// other rule is createOrder's (SPEC 4.1), so this only builds its body and speaks the caller's
// field names. An unconfident city still creates the order, flagged for review (SPEC 6: never lose
// a sale), and its candidates come back so the assistant can ask the buyer.
import type { Deps } from '../../app.ts';
import { findPack } from '../../db/queries/products.queries.ts';
import type { Caller } from '../caller.ts';
import { productOf, storeOf } from '../tenancy.ts';
import { findOrder } from '../../db/queries/orders.queries.ts';
import { AppError, type FieldIssue } from '../../errors.ts';
import { toMajor } from '../../domain/money.ts';
import { DEFAULT_PACK, ORDER_QUANTITY } from '../../limits.ts';
import { createOrder } from './create-order.use-case.ts';
import type { CreateAccountOrderInput } from './create-account-order.schema.ts';
import { orderDetail } from './orders.use-case.ts';

const BUYER_FIELDS = new Set(['nombre', 'telefono', 'departamento', 'ciudad', 'direccion', 'barrio', 'referencia', 'distrito', 'colonia', 'codigo_postal']);

/** createOrder's body field → this input's path. */
function inputField(field: string): string {
  if (BUYER_FIELDS.has(field)) return `buyer.${field}`;
  if (field === 'Idempotency-Key') return 'idempotency_key';
  if (field === 'total_price' || field === 'unit_price') return 'pack';
  return field;
}

function renamed(error: AppError): AppError {
  if (error.code === 'idempotency_mismatch')
    return new AppError('idempotency_mismatch', 'idempotency_key was already used for a different order', [
      { field: 'idempotency_key', message: 'already used with different input; use a new key for a new order' },
    ]);
  if (!error.details?.length) return error;
  const details: FieldIssue[] = error.details.map((d) => ({ field: inputField(d.field), message: d.message }));
  return new AppError(error.code, error.message, details, error.headers);
}

export async function createAccountOrder(deps: Deps, caller: Caller, input: CreateAccountOrderInput) {
  const storeId = input.store_id.toLowerCase();
  const productId = input.product_id.toLowerCase();
  const packCode = (input.pack ?? DEFAULT_PACK).trim();
  const quantity = input.quantity ?? ORDER_QUANTITY.default;

  // Tenancy first: another account's store or product is not_found (MCP-TOOLS.md §5.14).
  const store = await storeOf(deps, caller, storeId);
  const { product } = await productOf(deps, caller, productId);
  if (product.store_id !== store.id) throw new AppError('not_found', 'Product not found', [{ field: 'product_id', message: 'Unknown product of this store' }]);
  const pack = await findPack(deps.db, product.id, packCode);
  if (!pack) throw new AppError('invalid_input', 'Invalid data', [{ field: 'pack', message: `Unknown pack "${packCode}" for this product` }]);

  const unitPrice = toMajor(pack.price_minor);
  const body: Record<string, unknown> = {
    store_id: storeId,
    product_id: productId,
    ...input.buyer,
    pack: pack.code,
    quantity,
    unit_price: unitPrice,
    total_price: toMajor(pack.price_minor * quantity),
    ...(input.landing_page_id !== undefined && { landing_page_id: input.landing_page_id }),
  };

  let outcome;
  try {
    const principal = { accountId: store.account_id, actor: caller.actor, subjectId: caller.subjectId, apiKeyId: caller.credential === 'secret_key' ? caller.subjectId : null };
    outcome = await createOrder(deps, { body, principal, ip: null, idempotencyKey: input.idempotency_key, note: input.notes }, {});
  } catch (error) {
    throw error instanceof AppError ? renamed(error) : error;
  }
  const order = (await findOrder(deps.db, outcome.body.data.id))!;
  const detail = await orderDetail(deps, order);
  const created = detail.events.find((e) => e.type === 'order.created')?.data as { city?: { candidates?: unknown[] } | null } | undefined;
  return {
    ...detail,
    replayed: outcome.replayed,
    city_candidates: detail.needs_review ? (created?.city?.candidates ?? []) : [],
  };
}
