// The Cloud API's status reports (sent → delivered → read, or failed) applied to our messages, by one
// writer: the status webhook (src/use-cases/whatsapp/whatsapp-webhook.use-case.ts) as reports arrive,
// and the send (src/whatsapp/worker.ts) for reports that arrived before it recorded the message id.
// Meta reports within milliseconds of accepting a message, and the instance the webhook reaches may
// not be the one sending (issue 28): a report about an id not recorded yet is kept for a while and
// applied when the send records it, instead of being lost.
import type { Deps } from '../app.ts';
import type { Tx } from '../db/transaction.ts';
import { applyMessageStatus, forgetEarlyStatuses, keepEarlyStatus, takeEarlyStatuses, type ReportedStatus } from '../db/queries/whatsapp.queries.ts';
import { WHATSAPP_EARLY_STATUS_KEEP_MS } from '../limits.ts';

export interface StatusReport {
  wamid: string;
  status: ReportedStatus;
  error: string | null;
}

type ReportDeps = Pick<Deps, 'orderEvents'>;

/** Applies one report inside the caller's transaction: true when it moved a message (and its order's timeline). */
export async function applyStatusReport(deps: ReportDeps, tx: Tx, report: StatusReport, now: string): Promise<boolean> {
  const m = await applyMessageStatus(tx, report.wamid, report.status, report.error, now);
  if (m === 'unknown') {
    await forgetEarlyStatuses(tx, new Date(Date.parse(now) - WHATSAPP_EARLY_STATUS_KEEP_MS).toISOString());
    await keepEarlyStatus(tx, { wa_message_id: report.wamid, status: report.status, error: report.error, received_at: now });
    return false;
  }
  if (!m) return false;
  await deps.orderEvents.record(tx, { order_id: m.order_id, store_id: m.store_id, type: `whatsapp.${m.status}`, actor: 'whatsapp', data: { message_id: m.id, ...(report.error ? { error: report.error } : {}) }, created_at: now });
  return true;
}

/** A send just recorded its message id: the reports that overtook it, applied in the order statuses move. */
export async function applyEarlyReports(deps: ReportDeps, tx: Tx, wamid: string, now: string): Promise<number> {
  let applied = 0;
  for (const r of await takeEarlyStatuses(tx, wamid)) if (await applyStatusReport(deps, tx, { wamid, status: r.status, error: r.error }, now)) applied++;
  return applied;
}
