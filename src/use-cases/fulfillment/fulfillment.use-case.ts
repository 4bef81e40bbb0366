// Support's view of the push outbox (SPEC 7): list jobs, replay failed or dead ones (idempotent:
// a replayed job still looks the order up before creating it), and pull statuses from platforms
// without webhooks.
import type { Deps } from '../../app.ts';
import type * as v from 'valibot';
import { writeTransaction } from '../../db/transaction.ts';
import { connectedStores, countJobsByState, listJobs, pushBacklog, pushedOpenOrders, requeueJobs } from '../../db/queries/fulfillment.queries.ts';
import { findOrder } from '../../db/queries/orders.queries.ts';
import { operatorUrls, type PlatformAccess } from '../../platforms/connections.ts';
import { OutboundError } from '../../http/outbound/outbound-error.ts';
import { AttemptFailure } from '../../outbox/attempt-failure.ts';
import { platformFor } from '../../platforms/connections.ts';
import { applyStatusReport } from '../../fulfillment/apply-status.ts';
import { AppError, fieldError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from '../../limits.ts';
import { reviewReason } from '../orders/orders.use-case.ts';
import type { Caller } from '../caller.ts';
import { orderOf, storeOf } from '../tenancy.ts';
import { JOB_STATES, type ListPushJobsInput, type ReplayPushesInput } from './fulfillment.schemas.ts';

/**
 * The outbox as support sees it (list_push_jobs; `codrail fulfillment list`; the console's pushes
 * screen): the caller's account's jobs (every account for the operator), counts per state and the
 * backlog an outage leaves.
 */
export async function listPushJobs(deps: Pick<Deps, 'db' | 'clock'>, caller: Pick<Caller, 'accountId'>, input: v.InferOutput<typeof ListPushJobsInput>) {
  // The state was checked by ListPushJobsInput in every shell; an out-of-range limit is refused, not clamped.
  const { state, limit = LIST_DEFAULT_LIMIT } = input;
  if (limit < 1 || limit > LIST_MAX_LIMIT) throw fieldError('limit', `limit must be 1 to ${LIST_MAX_LIMIT}`);
  const storeId = input.store_id === undefined ? undefined : (await storeOf(deps, caller, input.store_id)).id;
  const [jobs, counts, backlog] = await Promise.all([
    listJobs(deps.db, { state, accountId: caller.accountId, storeId }, limit),
    countJobsByState(deps.db, caller.accountId, storeId),
    pushBacklog(deps.db, caller.accountId, storeId),
  ]);
  const oldest = backlog.oldest as string | null;
  return {
    // What an outage leaves behind: pushes still to reach the platform, and how long the oldest has waited.
    backlog: { pending: Number(backlog.pending), oldest_pending_since: oldest, oldest_pending_age_s: oldest ? Math.max(0, Math.round((deps.clock.now().getTime() - Date.parse(oldest)) / 1000)) : null },
    counts: Object.fromEntries(JOB_STATES.map((s) => [s, Number(counts.find((c) => c.state === s)?.n ?? 0)])),
    jobs: jobs.map((j) => ({
      action: j.action,
      store_id: j.store_id,
      store_name: j.store_name,
      // A held push says what it waits for, and what releases it.
      waiting_for:
        j.state !== 'held'
          ? null
          : j.needs_review === 1
            ? `${reviewReason(j)}`
            : j.order_status === 'pending' && j.risk_hold !== null && j.risk_score > j.risk_hold
              ? `a confirmation: its return risk ${j.risk_score} is above the store's hold at ${j.risk_hold} (orders set-status <id> --status confirmed)`
              : j.push_policy === 'on_confirm' && j.order_status === 'pending'
                ? 'the order to be confirmed (the store pushes on confirmation): orders set-status <id> --status confirmed'
                : 'release by its store policy',
      order_id: j.order_id,
      order_number: j.order_number,
      state: j.state,
      attempts: j.attempts,
      next_attempt_at: j.next_attempt_at,
      last_error: j.last_error,
      remote_id: j.remote_id,
      updated_at: j.updated_at,
    })),
  };
}

/**
 * Replay (replay_pushes; `codrail fulfillment replay`; the console): one order's failed or dead job,
 * or every dead one of the caller's account, due now with a fresh budget. `storeId`: the CLI's
 * `--store`, for an order number several stores have.
 */
export async function replayPushes(deps: Pick<Deps, 'db' | 'clock' | 'orderEvents'>, caller: Pick<Caller, 'accountId' | 'actor'>, input: v.InferOutput<typeof ReplayPushesInput>, storeId?: string) {
  if (!input.order_id === !input.all_dead) throw new AppError('invalid_input', 'Give either an order or all_dead', [{ field: 'order_id', message: 'one of order_id or all_dead' }]);
  const orderId = input.order_id ? (await orderOf(deps, caller, input.order_id, 'order_id', storeId)).order.id : undefined;
  const actor = caller.actor;
  const now = deps.clock.now().toISOString();
  const replayed = await writeTransaction(deps.db, async (tx) => {
    const rows = await requeueJobs(tx, orderId ? { orderId, accountId: caller.accountId } : { state: 'dead', accountId: caller.accountId }, now);
    for (const row of rows) {
      const order = (await findOrder(tx, row.order_id))!;
      await deps.orderEvents.record(tx, { order_id: row.order_id, store_id: order.store_id, type: 'fulfillment.replayed', actor, data: {}, created_at: now });
    }
    return rows;
  });
  return { replayed: replayed.length, orders: replayed.map((r) => r.order_id) };
}

/** Pulls each pushed, unfinished order's status from the platform and applies it. */
export async function syncStatuses(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'log' | 'secrets' | 'nudge' | 'outbound' | 'orderEvents'>, pageSize = LIST_MAX_LIMIT) {
  if (!(await operatorUrls(deps)).fulfillmentUrl && (await connectedStores(deps.db)).length === 0)
    throw new AppError('conflict', 'No fulfillment platform configured (CODRAIL_FULFILLMENT_URL) and no store has its own connection');
  // Each store reads from its own platform with the credentials that pushed its orders.
  const accesses = new Map<string, Promise<PlatformAccess | undefined>>();
  const accessOf = async (storeId: string) => {
    if (!accesses.has(storeId)) accesses.set(storeId, platformFor(deps, storeId));
    const access = await accesses.get(storeId)!;
    if (!access) throw new AttemptFailure('retry', 'no fulfillment platform: the store has no connection and the server no default (CODRAIL_FULFILLMENT_URL)');
    return access;
  };
  let changed = 0;
  let checked = 0;
  const errors: { order_id: string; error: string }[] = [];
  // Every open pushed order, page by page: none is starved by older ones that stay open.
  let after = '';
  for (;;) {
    const page = await pushedOpenOrders(deps.db, after, pageSize);
    if (page.length === 0) break;
    after = page[page.length - 1]!.id;
    for (const order of page) {
      checked++;
      try {
        const access = await accessOf(order.store_id);
        const remote = await access.session.get(order.remote_id!);
        const now = deps.clock.now().toISOString();
        const outcome = await writeTransaction(deps.db, (tx) => applyStatusReport(deps, tx, order.id, access.platform, remote.status, { via: 'sync', actor: 'sync', remoteId: remote.id, tracking: remote.tracking_number }, now));
        if (outcome?.moved || remote.status !== order.fulfillment_status) changed++;
      } catch (error) {
        errors.push({ order_id: order.id, error: error instanceof OutboundError || error instanceof AttemptFailure ? error.message : String(error) });
      }
    }
  }
  deps.nudge.whatsapp();
  return { checked, changed, errors };
}
