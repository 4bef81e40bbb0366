// Pushes on demand and status pulls (MCP-TOOLS.md §6.8 rows 49-51; issue 12), all through the one
// outbox: a tool's push releases the order's job with a fresh attempt budget, claims it under the
// same lease the worker uses and runs the worker's attempt (look up by reference before any create
// that follows an unknown outcome). Whoever holds the lease pushes; the other waits for its outcome.
// So a push never creates a second platform order, whatever tools, batches, replays and the worker do.
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { confirmedUnpushed, findJob, pushedOpenOrdersOfStore, requeueJob, type JobRow } from '../../db/queries/fulfillment.queries.ts';
import { findJobByOrder, findOrder } from '../../db/queries/orders.queries.ts';
import { applyStatusReport } from '../../fulfillment/apply-status.ts';
import { OutboundError } from '../../http/outbound/outbound-error.ts';
import { platformFor } from '../../platforms/connections.ts';
import { fulfillmentKind } from '../../fulfillment/worker.ts';
import { Outbox } from '../../outbox/outbox.ts';
import { fulfillmentError, invalidState } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { FULFILLMENT_TOOL_WAIT_MS, PUSH_BATCH_DEFAULT, PUSH_BATCH_MAX, SYNC_MAX_ORDERS } from '../../limits.ts';
import type { Caller } from '../caller.ts';
import { notFoundIn, orderOf, storeOf } from '../tenancy.ts';
import { decodeCursor, encodeCursor } from '../pagination.ts';
import { notConnected, platformFailure } from './connection.use-case.ts';
import type { PushConfirmedOrdersInput, PushOrderInput, PushResult, SyncFulfillmentStatusInput, SyncResult } from './fulfillment.schemas.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;
type PushDeps = Pick<Deps, 'db' | 'config' | 'clock' | 'log' | 'secrets' | 'nudge' | 'outbound' | 'failpoints' | 'orderEvents'>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Claims the job and runs one attempt now; if the worker holds it, waits (bounded) for its outcome. */
export async function runJobNow(deps: PushDeps, jobId: string): Promise<JobRow> {
  const deadline = Date.now() + FULFILLMENT_TOOL_WAIT_MS;
  const workerDeps = { ...deps, log: deps.log.child({ component: 'fulfillment' }) };
  // The same machinery as the worker's (claim under the same lease, the same try and settle), run once here.
  const outbox = new Outbox(workerDeps, fulfillmentKind(workerDeps));
  for (;;) {
    const claimed = await outbox.claim(jobId);
    if (claimed) {
      await outbox.runClaimed(claimed);
      deps.nudge.whatsapp();
      deps.nudge.webhooks();
      return (await findJob(deps.db, jobId))!;
    }
    const job = (await findJob(deps.db, jobId))!;
    if (job.state !== 'in_flight' || Date.now() > deadline) return job;
    await sleep(100);
  }
}

const resultOf = (order: { id: string; order_number: number }, job: JobRow | undefined, alreadyPushed: boolean): Out<typeof PushResult> => ({
  order_id: order.id,
  order_number: order.order_number,
  pushed: job?.state === 'done',
  already_pushed: alreadyPushed,
  remote_id: job?.remote_id ?? null,
  state: job?.state ?? 'none',
  attempts: job?.attempts ?? 0,
  last_error: job?.last_error ?? null,
});

/** Releases (fresh attempt budget) and runs one order's push; the order must be confirmed and its city settled. */
async function pushOne(deps: PushDeps, caller: Caller, order: { id: string; order_number: number; store_id: string }): Promise<Out<typeof PushResult>> {
  const job = (await findJobByOrder(deps.db, order.id))!;
  if (job.state === 'done') return resultOf(order, job, true);
  const now = deps.clock.now().toISOString();
  if (job.state !== 'in_flight')
    await writeTransaction(deps.db, async (tx) => {
      if (Number((await requeueJob(tx, job.id, now)).numUpdatedRows) === 1)
        await deps.orderEvents.record(tx, { order_id: order.id, store_id: order.store_id, type: 'fulfillment.push_requested', actor: caller.actor, data: { previous_state: job.state }, created_at: now });
    });
  const after = await runJobNow(deps, job.id);
  return resultOf(order, after, false);
}

export async function pushOrderToFulfillment(deps: PushDeps, caller: Caller, input: Out<typeof PushOrderInput>) {
  const { order } = await orderOf(deps, caller, input.order_id);
  if (order.sandbox === 1) throw invalidState('Sandbox (test key) orders are never sent to the fulfillment platform', [{ field: 'order_id', message: 'sandbox order' }]);
  const job = await findJobByOrder(deps.db, order.id);
  if (job?.state === 'done') return resultOf(order, job, true);
  if (order.status !== 'confirmed')
    throw invalidState(`Only confirmed orders are pushed; this one is ${order.status}`, [{ field: 'order_id', message: order.status === 'pending' ? 'confirm it first (update_order_status)' : `status ${order.status}` }]);
  if (order.needs_review === 1) throw invalidState("The order's city needs review before it can be pushed", [{ field: 'order_id', message: 'city needs review (update_order_buyer with the right ciudad)' }]);
  if (!deps.config.fulfillmentUrl) throw notConnected();
  if (!job) throw invalidState('The order has no push job', [{ field: 'order_id', message: 'no push job' }]);
  const result = await pushOne(deps, caller, order);
  // A request the platform refused outright will not succeed by retrying: say so as an error.
  if (result.state === 'dead') throw fulfillmentError(`The fulfillment platform refused the order: ${result.last_error ?? 'unknown error'}`, false, 'order_id');
  return result;
}

export async function pushConfirmedOrders(deps: PushDeps, caller: Caller, input: Out<typeof PushConfirmedOrdersInput>) {
  const store = await storeOf(deps, caller, input.store_id);
  const max = input.max_orders ?? PUSH_BATCH_DEFAULT;
  const dryRun = input.dry_run ?? false;
  if (!dryRun && !deps.config.fulfillmentUrl) throw notConnected();
  // Orders whose city awaits review never count against max_orders: they would hold the batch forever.
  const [rows, review] = await Promise.all([confirmedUnpushed(deps.db, store.id, false, max + 1), confirmedUnpushed(deps.db, store.id, true, PUSH_BATCH_MAX)]);
  const batch = rows.slice(0, max);
  const hasMore = rows.length > max;
  const last = batch.at(-1);
  // They are reported next to the orders of this batch's span (all of them on the last page).
  const shown = review.filter((r) => !hasMore || (last !== undefined && (r.created_at < last.created_at || (r.created_at === last.created_at && r.id < last.id))));
  const ordered = [...batch.map((r) => ({ ...r, review: false })), ...shown.map((r) => ({ ...r, review: true }))].sort((a, b) =>
    a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1,
  );
  const results = [];
  for (const row of ordered) {
    const order = { id: row.id, order_number: row.order_number, store_id: store.id };
    if (row.review) results.push({ ...resultOf(order, undefined, false), state: row.state, skipped: 'city needs review' });
    else if (dryRun) results.push({ ...resultOf(order, undefined, false), state: row.state, skipped: null });
    else results.push({ ...(await pushOne(deps, caller, order)), skipped: null });
  }
  return { store_id: store.id, dry_run: dryRun, results, has_more: hasMore };
}

/** Reads pushed orders' statuses from the platform and applies them (state machine, events, WhatsApp). */
export async function syncFulfillmentStatus(deps: PushDeps, caller: Caller, input: Out<typeof SyncFulfillmentStatusInput>): Promise<Out<typeof SyncResult>> {
  const store = await storeOf(deps, caller, input.store_id);
  // Each id must be an order of this store: another store's (or account's) is not_found like an unknown one.
  if (input.order_ids)
    for (const id of input.order_ids) {
      const { order } = await orderOf(deps, caller, id, 'order_ids');
      if (order.store_id !== store.id) throw notFoundIn('order_ids', 'Order');
    }
  let access;
  try {
    access = await platformFor(deps, store.id);
  } catch (error) {
    throw platformFailure(error);
  }
  if (!access) throw notConnected();
  const limit = SYNC_MAX_ORDERS;
  const after = decodeCursor(input.cursor, 1)?.[0];
  const rows = await pushedOpenOrdersOfStore(deps.db, store.id, { orderIds: input.order_ids, updatedSince: input.updated_since, afterId: after, limit: limit + 1 });
  const orders: Out<typeof SyncResult>['orders'] = [];
  let changed = 0;
  for (const row of rows.slice(0, limit)) {
    try {
      const remote = await access.session.get(row.remote_id!);
      const now = deps.clock.now().toISOString();
      const outcome = await writeTransaction(deps.db, (tx) =>
        applyStatusReport(deps, tx, row.id, access.platform, remote.status, { via: 'sync', actor: caller.actor, remoteId: remote.id, tracking: remote.tracking_number }, now),
      );
      if (outcome?.moved || remote.status !== row.fulfillment_status) changed++;
      const order = (await findOrder(deps.db, row.id))!;
      orders.push({ order_id: row.id, order_number: row.order_number, status: order.status, platform_status: order.fulfillment_status, tracking_number: order.tracking_number, error: null });
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      orders.push({ order_id: row.id, order_number: row.order_number, status: row.status, platform_status: row.fulfillment_status, tracking_number: null, error: error.message });
    }
  }
  deps.nudge.whatsapp();
  const more = rows.length > limit;
  return { store_id: store.id, checked: orders.length, changed, orders, has_more: more, ...(more ? { next_cursor: encodeCursor([rows[limit - 1]!.id]) } : {}) };
}
