// The buyer's address correction (issue 25 §1): the one-time link the Corregir dirección tap sends
// opens a small page with the order's address; what the buyer sends goes through the same rule as a
// person's correction (update_order_buyer: the city is canonicalized again), then the link is used
// up and the order is confirmed by the buyer. A link that is unknown, used or expired opens nothing.
import type { Deps } from '../../app.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { consumeCorrection, findOrder, type OrderRow } from '../../db/queries/orders.queries.ts';
import { findStore } from '../../db/queries/stores.queries.ts';
import { BUYER_ACTOR, REPLIES } from '../../domain/confirmation.ts';
import { countryProfile, POSTAL_CODE_REQUIRED } from '../../domain/countries.ts';
import { buyerIn } from '../caller.ts';
import { parseWith } from '../validate.ts';
import { displayNumber, type StoreRow } from '../tenancy.ts';
import { UpdateOrderBuyerInput } from './order-life.schemas.ts';
import { changeStatus, updateOrderBuyer } from './order-life.use-case.ts';
import { correctionHash, orderOfCorrection, reply } from './confirmation.use-case.ts';

/** The fields the page lets the buyer change: where the parcel goes, not who they are. */
export const CORRECTABLE = ['departamento', 'ciudad', 'direccion', 'barrio', 'referencia', 'distrito', 'colonia', 'codigo_postal'] as const;

export interface CorrectionView {
  order: OrderRow;
  store: StoreRow;
  number: string;
  regionLabel: string;
  /** The official catalog's regions (a select), or none (free text). */
  regions: string[];
  postalCodeRequired: boolean;
}

export async function correctionView(deps: Pick<Deps, 'db' | 'clock' | 'catalogs'>, token: string): Promise<CorrectionView | undefined> {
  const order = await orderOfCorrection(deps, token);
  if (!order || order.status !== 'pending') return undefined;
  const store = (await findStore(deps.db, order.store_id))!;
  const catalog = await deps.catalogs.get(store.country, 'official').catch(() => undefined);
  const label = countryProfile(store.country)?.regionLabel ?? 'departamento';
  return {
    order,
    store,
    number: displayNumber(order, store),
    regionLabel: label.charAt(0).toUpperCase() + label.slice(1),
    regions: catalog ? Object.keys(catalog.regions) : [],
    postalCodeRequired: POSTAL_CODE_REQUIRED.has(store.country),
  };
}

/**
 * Applies the buyer's corrected address and confirms the order. Bad fields are the same field
 * errors update_order_buyer gives (nothing changes, the link stays valid); a link used meanwhile
 * by another submit confirms nothing twice.
 */
export async function submitCorrection(deps: Pick<Deps, 'db' | 'clock' | 'catalogs' | 'config' | 'orderEvents' | 'nudge'>, view: CorrectionView, token: string, fields: Record<string, string>): Promise<OrderRow> {
  const input = parseWith(UpdateOrderBuyerInput, { order_id: view.order.id, ...Object.fromEntries(CORRECTABLE.filter((f) => fields[f] !== undefined).map((f) => [f, fields[f]])) });
  await updateOrderBuyer(deps, buyerIn(view.store.account_id), input);
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, async (tx) => {
    if (!(await consumeCorrection(tx, view.order.id, correctionHash(token)))) return;
    const order = (await findOrder(tx, view.order.id))!;
    if (order.status !== 'pending') return;
    await changeStatus(deps, tx, order, view.store, BUYER_ACTOR, 'confirmed', 'address corrected by the buyer', now);
    await reply(deps, tx, order, REPLIES.confirmed(view.number), now);
  });
  deps.nudge.fulfillment();
  deps.nudge.whatsapp();
  return (await findOrder(deps.db, view.order.id))!;
}
