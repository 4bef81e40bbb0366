import type { Insertable } from 'kysely';
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';
import type { WhatsappSettingsTable } from '../tables/index.ts';

export const findWhatsappSettings = (db: Db | Tx, storeId: string) => db.selectFrom('whatsapp_settings').selectAll().where('store_id', '=', storeId).executeTakeFirst();

export const saveWhatsappSettings = (db: Db | Tx, row: Insertable<WhatsappSettingsTable>) =>
  db
    .insertInto('whatsapp_settings')
    .values(row)
    .onConflict((oc) => oc.column('store_id').doUpdateSet({ enabled: row.enabled, sender_number: row.sender_number, phone_number_id: row.phone_number_id, events: row.events, templates: row.templates, updated_at: row.updated_at }))
    .execute();
