import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { WhatsappEarlyStatusesTable, WhatsappInboundTable, WhatsappMessageStatus, WhatsappMessagesTable, WhatsappNumbersTable, WhatsappSettingsTable } from '../tables/index.ts';
import { before, type After } from './keyset.ts';
import { compiledOnce } from '../compiled-query.ts';

const settingsOfStore = compiledOnce((db, storeId: string) => db.selectFrom('whatsapp_settings').selectAll().where('store_id', '=', storeId));
export const findWhatsappSettings = async (db: Db | Tx, storeId: string) => (await settingsOfStore(db, storeId))[0];

/**
 * Saves a store's settings only if they are still as read (`seen`: the row's updated_at then, null
 * when there was no row): false when another edit came in between, so the caller reads again
 * rather than overwrite it. A compare-and-set, because a settings edit may wait on a live Cloud API
 * call between its read and its write, and no transaction is held open across a network call.
 */
export async function saveWhatsappSettings(db: Db | Tx, row: Insertable<WhatsappSettingsTable>, seen: string | null): Promise<boolean> {
  const result = await db
    .insertInto('whatsapp_settings')
    .values(row)
    .onConflict((oc) =>
      seen === null
        ? oc.column('store_id').doNothing()
        : oc
            .column('store_id')
            .doUpdateSet({
              enabled: row.enabled,
              sender_number: row.sender_number,
              phone_number_id: row.phone_number_id,
              events: row.events,
              templates: row.templates,
              updated_at: row.updated_at,
              token_sealed: row.token_sealed ?? null,
              token_last4: row.token_last4 ?? null,
              business_account_id: row.business_account_id ?? null,
              credentials_verified_at: row.credentials_verified_at ?? null,
            })
            .where('whatsapp_settings.updated_at', '=', seen),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Every store's sealed WhatsApp token (`codrail secrets rotate`). */
export const allWhatsappTokens = (db: Db) => db.selectFrom('whatsapp_settings').select(['store_id', 'token_sealed']).where('token_sealed', 'is not', null).execute();

export const resealWhatsappToken = (db: Db, storeId: string, sealed: string) => db.updateTable('whatsapp_settings').set({ token_sealed: sealed }).where('store_id', '=', storeId).execute();

// Which account each WhatsApp phone-number id belongs to (issue 19 §4).
export type WhatsappNumberRow = Selectable<WhatsappNumbersTable>;

export const findWhatsappNumber = (db: Db | Tx, phoneNumberId: string) => db.selectFrom('whatsapp_numbers').selectAll().where('phone_number_id', '=', phoneNumberId).executeTakeFirst();

/** Records a number for an account; false when another account holds it (the row is left as it was). */
export async function claimWhatsappNumber(tx: Tx, row: WhatsappNumberRow): Promise<boolean> {
  const held = await findWhatsappNumber(tx, row.phone_number_id);
  if (held && held.account_id !== row.account_id) return false;
  // An operator's assignment stays one when a store of that account later proves the number with its own token; an assignment upgrades a store's proof.
  const source = held?.source === 'operator' || row.source === 'operator' ? 'operator' : 'store';
  await tx
    .insertInto('whatsapp_numbers')
    .values({ ...row, source })
    .onConflict((oc) =>
      oc.column('phone_number_id').doUpdateSet({
        source,
        store_id: row.store_id ?? held?.store_id ?? null,
        business_account_id: row.business_account_id ?? held?.business_account_id ?? null,
        display_phone_number: row.display_phone_number ?? held?.display_phone_number ?? null,
        verified_name: row.verified_name ?? held?.verified_name ?? null,
      }),
    )
    .execute();
  return true;
}

export const deleteWhatsappNumber = async (db: Db | Tx, phoneNumberId: string) =>
  Number((await db.deleteFrom('whatsapp_numbers').where('phone_number_id', '=', phoneNumberId).executeTakeFirst()).numDeletedRows) === 1;

export const listWhatsappNumbers = (db: Db, accountId?: string) => {
  let q = db.selectFrom('whatsapp_numbers as n').innerJoin('accounts as a', 'a.id', 'n.account_id').selectAll('n').select('a.name as account_name');
  if (accountId) q = q.where('n.account_id', '=', accountId);
  return q.orderBy('n.created_at').orderBy('n.phone_number_id').execute();
};

// The WhatsApp outbox (issue 12): each row is a message; the worker claims queued ones under a lease.
export type MessageRow = Selectable<WhatsappMessagesTable>;

/** Inserts a message; false when its event or idempotency key already has one (exactly once per event). */
export const insertMessage = async (tx: Tx, row: MessageRow) =>
  Number((await tx.insertInto('whatsapp_messages').values(row).onConflict((oc) => oc.doNothing()).executeTakeFirst()).numInsertedOrUpdatedRows ?? 0n) === 1;

export const findMessage = (db: Db | Tx, id: string) => db.selectFrom('whatsapp_messages').selectAll().where('id', '=', id).executeTakeFirst();

export const findMessageByKey = (db: Db | Tx, storeId: string, key: string) =>
  db.selectFrom('whatsapp_messages').selectAll().where('store_id', '=', storeId).where('idempotency_key', '=', key).executeTakeFirst();

/** Only a queued message can be cancelled: one being sent may already be on its way. */
export const cancelQueuedMessage = async (tx: Tx, id: string, now: string) =>
  Number((await tx.updateTable('whatsapp_messages').set({ status: 'cancelled', updated_at: now }).where('id', '=', id).where('status', '=', 'queued').executeTakeFirst()).numUpdatedRows) === 1;

export interface MessageFilter {
  accountId: string | null;
  storeId?: string | undefined;
  orderId?: string | undefined;
  status?: WhatsappMessageStatus | undefined;
  after?: After | undefined;
  limit: number;
}

/** Newest first, keyset over (created_at, id). */
export const listMessages = (db: Db, f: MessageFilter) => {
  let q = db.selectFrom('whatsapp_messages as m').innerJoin('stores as s', 's.id', 'm.store_id').selectAll('m');
  if (f.accountId !== null) q = q.where('s.account_id', '=', f.accountId);
  if (f.storeId) q = q.where('m.store_id', '=', f.storeId);
  if (f.orderId) q = q.where('m.order_id', '=', f.orderId);
  if (f.status) q = q.where('m.status', '=', f.status);
  if (f.after) q = q.where(before('m.created_at', 'm.id', f.after));
  return q.orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(f.limit).execute();
};

export type ReportedStatus = 'sent' | 'delivered' | 'read' | 'failed';

/** What a status webhook may still change: statuses only move forward (sent → delivered → read); failed ends it. */
const RANK: Record<WhatsappMessageStatus, number> = { queued: 0, sending: 1, sent: 2, delivered: 3, read: 4, failed: 5, cancelled: 5 };

/** A status report's change to the message it names: the message as changed, undefined when it changes nothing, `unknown` when no message has that id (yet). */
export async function applyMessageStatus(tx: Tx, wamid: string, status: ReportedStatus, error: string | null, now: string): Promise<MessageRow | 'unknown' | undefined> {
  const m = await tx.selectFrom('whatsapp_messages').selectAll().where('wa_message_id', '=', wamid).executeTakeFirst();
  if (!m) return 'unknown';
  if (RANK[status] <= RANK[m.status] || m.status === 'failed' || m.status === 'cancelled') return undefined;
  if (status === 'failed' && (m.status === 'delivered' || m.status === 'read')) return undefined;
  const change = {
    status,
    updated_at: now,
    ...(status === 'delivered' ? { delivered_at: now } : {}),
    ...(status === 'read' ? { read_at: now, delivered_at: m.delivered_at ?? now } : {}),
    ...(status === 'failed' ? { last_error: error ?? 'the Cloud API reported the message failed' } : {}),
  };
  // Only from the status read: a change committed meanwhile by another writer is not overwritten.
  const r = await tx.updateTable('whatsapp_messages').set(change).where('id', '=', m.id).where('status', '=', m.status).executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return undefined;
  return { ...m, ...change };
}

/** How many messages are in each status (the metrics' gauge). */
export const countMessagesByStatus = (db: Db) => db.selectFrom('whatsapp_messages').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();

/** A handled inbound message (by Meta's id): a retried webhook finds it and changes nothing. */
export const findInboundOrder = (db: Db | Tx, waMessageId: string) => db.selectFrom('whatsapp_inbound').select(['wa_message_id', 'order_id']).where('wa_message_id', '=', waMessageId).executeTakeFirst();

export const rememberInbound = (tx: Tx, row: Insertable<WhatsappInboundTable>) => tx.insertInto('whatsapp_inbound').values(row).execute();

export const findMessageByWamid = (db: Db | Tx, wamid: string) => db.selectFrom('whatsapp_messages').select(['id', 'order_id']).where('wa_message_id', '=', wamid).executeTakeFirst();

/**
 * The order a buyer's free text is about: their newest live order, among the stores that send from
 * the business number that received it (any store when none names that number).
 */
export async function latestOrderOfPhone(db: Db | Tx, e164: string, phoneNumberId: string | undefined) {
  const base = db.selectFrom('orders').selectAll('orders').where('orders.telefono_e164', '=', e164).where('orders.sandbox', '=', 0).orderBy('orders.created_at', 'desc').limit(1);
  if (phoneNumberId) {
    const own = await base.where('orders.store_id', 'in', (eb) => eb.selectFrom('whatsapp_settings').select('store_id').where('phone_number_id', '=', phoneNumberId)).executeTakeFirst();
    if (own) return own;
  }
  return base.executeTakeFirst();
}

/** A report about a message id not recorded yet (its send is still being recorded): kept until it is, once per id and status. */
export const keepEarlyStatus = (tx: Tx, row: Insertable<WhatsappEarlyStatusesTable>) =>
  tx.insertInto('whatsapp_early_statuses').values(row).onConflict((oc) => oc.columns(['wa_message_id', 'status']).doNothing()).execute();

/** Early reports received before `cutoff`: their message id was never recorded (a send that never settled). */
export const forgetEarlyStatuses = (tx: Tx, cutoff: string) => tx.deleteFrom('whatsapp_early_statuses').where('received_at', '<', cutoff).execute();

/** The early reports of a message id, taken (deleted) to be applied now, in the order statuses move. */
export async function takeEarlyStatuses(tx: Tx, wamid: string) {
  const rows = await tx.selectFrom('whatsapp_early_statuses').selectAll().where('wa_message_id', '=', wamid).execute();
  if (rows.length === 0) return rows;
  await tx.deleteFrom('whatsapp_early_statuses').where('wa_message_id', '=', wamid).execute();
  return rows.sort((a, b) => RANK[a.status] - RANK[b.status]);
}
