// Support resolves an order's city by hand (SPEC 6): the region and city must name one entry of
// the store country's fulfillment catalog; the order takes the catalog spelling and code, keeps the
// buyer's text, leaves review, and its held outbox job becomes due. Recorded as an order event.
// The account operation resolve_order_city (REST, the CLI, the console) runs it.
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { findJobByOrder, findOrder, releaseHeldJob, updateOrderCity } from '../../db/queries/orders.queries.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { pushReleased } from '../../domain/push-policy.ts';
import type { Caller } from '../caller.ts';
import { orderOf } from '../tenancy.ts';
import { orderDetail } from './orders.use-case.ts';
import type { ResolveOrderCityInput } from './order-life.schemas.ts';
import { storeCatalog } from '../geo/store-cities.ts';

/** Jobs in these states have reached (or are reaching) the platform: the city is no longer ours to change. */
const PUSHED = new Set(['in_flight', 'done']);

/** `storeId`: the CLI's `--store`, for an order number several stores have. */
export async function resolveOrderCity(deps: Pick<Deps, 'db' | 'clock' | 'catalogs' | 'orderEvents'>, caller: Caller, input: v.InferOutput<typeof ResolveOrderCityInput>, storeId?: string) {
  const { order, store } = await orderOf(deps, caller, input.order_id, 'order_id', storeId);
  const view = await storeCatalog(deps, store);
  if (!view) throw new AppError('not_found', `No fulfillment catalog for ${store.country}: import one with codrail cities import`);
  const entry = view.matcher.entry(input.region, input.city);
  if (!entry) {
    const hint = view.matcher.match(input.region, input.city);
    const options = hint.confident ? [hint] : (hint.candidates ?? []);
    const suggestion = options.length ? `; did you mean ${options.slice(0, 5).map((c) => `"${c.city}" in "${c.region}"`).join(', ')}?` : '';
    throw new AppError('invalid_input', `No city "${input.city}" in region "${input.region}" of the ${store.country} catalog${suggestion}`, [
      { field: 'city', message: `must name one city of the region exactly (see codrail cities list ${store.country})` },
    ]);
  }
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, async (tx) => {
    const current = (await findOrder(tx, order.id))!;
    const job = await findJobByOrder(tx, order.id);
    if (job && PUSHED.has(job.state)) throw new AppError('conflict', 'The order was already sent to the fulfillment platform; change its address there');
    await updateOrderCity(tx, order.id, { departamento: entry.region, ciudad: entry.city, city_code: entry.code, city_match: 'manual', needs_review: 0, updated_at: now });
    // Released only when the store's push policy lets it go too (an on_confirm store waits for confirmation).
    const released = pushReleased({ ...current, needs_review: 0 }, store) ? await releaseHeldJob(tx, order.id, now) : { numUpdatedRows: 0n };
    await deps.orderEvents.record(tx, {
      order_id: order.id,
      store_id: order.store_id,
      type: 'order.city_resolved',
      actor: caller.actor,
      data: {
        from: { departamento: current.departamento, ciudad: current.ciudad, city_code: current.city_code, city_match: current.city_match },
        to: { departamento: entry.region, ciudad: entry.city, city_code: entry.code },
        input: { departamento: current.departamento_input, ciudad: current.ciudad_input },
        released: Number(released.numUpdatedRows) > 0,
      },
      created_at: now,
    });
  });
  return orderDetail(deps, (await findOrder(deps.db, order.id))!);
}
