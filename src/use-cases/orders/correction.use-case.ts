// The buyer's address correction (issue 25 §1): the one-time link the Corregir dirección tap sends
// opens a small page with the order's address; what the buyer sends goes through the same rule as a
// person's correction (update_order_buyer's: the city is canonicalized again), and in one transaction
// the link is used up, the address written and the order confirmed by the buyer. A link that is
// unknown, used or expired opens nothing; nor does one whose order moved on (confirmed, cancelled, or
// already at the platform: then the address is the platform's to change).
import type { Deps } from '../../app.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { consumeCorrection, findOrder, type OrderRow } from '../../db/queries/orders.queries.ts';
import { findStore } from '../../db/queries/stores.queries.ts';
import { BUYER_ACTOR, REPLIES } from '../../domain/confirmation.ts';
import { countryProfile, POSTAL_CODE_REQUIRED } from '../../domain/countries.ts';
import { parseWith } from '../validate.ts';
import { displayNumber, type StoreRow } from '../tenancy.ts';
import { UpdateOrderBuyerInput } from './order-life.schemas.ts';
import { applyBuyerCorrection, buyerCorrection, changeStatus, pushStarted } from './order-life.use-case.ts';
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

/** Why a link opens no form: it is not (or no longer) valid, or its order is on its way. */
export type CorrectionGone = 'invalid' | 'on_its_way';

export async function correctionView(deps: Pick<Deps, 'db' | 'clock' | 'catalogs'>, token: string): Promise<CorrectionView | CorrectionGone> {
  const order = await orderOfCorrection(deps, token);
  if (!order || order.status !== 'pending') return 'invalid';
  if (await pushStarted(deps.db, order.id)) return 'on_its_way';
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
 * Applies the buyer's corrected address and confirms the order, in one transaction that first uses
 * the link up: of two submits, one wins and the other is `invalid` having changed nothing. Bad
 * fields are update_order_buyer's field errors (nothing changes, the link stays valid).
 */
export async function submitCorrection(
  deps: Pick<Deps, 'db' | 'clock' | 'catalogs' | 'config' | 'orderEvents' | 'nudge'>,
  view: CorrectionView,
  token: string,
  fields: Record<string, string>,
): Promise<OrderRow | CorrectionGone> {
  const { order_id: _id, ...input } = parseWith(UpdateOrderBuyerInput, { order_id: view.order.id, ...Object.fromEntries(CORRECTABLE.filter((f) => fields[f] !== undefined).map((f) => [f, fields[f]])) });
  const correction = await buyerCorrection(deps, view.order, view.store, input);
  const now = deps.clock.now().toISOString();
  const outcome = await writeTransaction(deps.db, async (tx): Promise<CorrectionGone | undefined> => {
    // Read again: since the page was read the order may have moved on, or the link been used.
    const order = await findOrder(tx, view.order.id);
    if (!order || order.status !== 'pending') return 'invalid';
    if (await pushStarted(tx, order.id)) return 'on_its_way';
    if (!(await consumeCorrection(tx, order.id, correctionHash(token)))) return 'invalid';
    if (correction) await applyBuyerCorrection(deps, tx, order, view.store, BUYER_ACTOR, correction, now);
    await changeStatus(deps, tx, (await findOrder(tx, order.id))!, view.store, BUYER_ACTOR, 'confirmed', 'address corrected by the buyer', now);
    await reply(deps, tx, order, REPLIES.confirmed(view.number), now);
    return undefined;
  });
  if (outcome) return outcome;
  deps.nudge.fulfillment();
  deps.nudge.whatsapp();
  return (await findOrder(deps.db, view.order.id))!;
}
