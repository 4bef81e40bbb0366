// What `codrail serve` was started with that other processes on the same database need (issue 22):
// the platform URLs, so the CLI connects a store to the server's platform without its environment.
import type { Db } from '../connect.ts';
import type { Tx } from '../transaction.ts';

/** The platform URLs, and the public base URL the server answers at (a receiver path shown by the CLI names it). */
export type ServerSettingName = 'fulfillment_url' | 'dropi_url' | 'base_url';

export const serverSetting = async (db: Db | Tx, name: ServerSettingName): Promise<string | undefined> =>
  (await db.selectFrom('server_settings').select('value').where('name', '=', name).executeTakeFirst())?.value;

/** Records a setting, or forgets it when the server now runs without it. */
export const recordServerSetting = async (db: Db, name: ServerSettingName, value: string | undefined, now: string): Promise<void> => {
  if (value === undefined) await db.deleteFrom('server_settings').where('name', '=', name).execute();
  else
    await db
      .insertInto('server_settings')
      .values({ name, value, updated_at: now })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now }))
      .execute();
};
