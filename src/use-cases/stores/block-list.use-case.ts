// The block list's operations (issue 13 §5): values are normalized the way order creation matches
// them (phones to E.164 for the store's country, IPs to their canonical text), so an entry blocks
// what it says; adding an entry twice, or removing one that is not there, changes nothing.
import { isIP } from 'node:net';
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { deleteBlock, insertBlock, listBlocks } from '../../db/queries/stores.queries.ts';
import { normalizePhone } from '../../domain/phone.ts';
import { fieldError } from '../../errors.ts';
import type { Caller } from '../caller.ts';
import { storeOf, type StoreRow } from '../tenancy.ts';
import type { AddBlockInput, Block, BlockPage, ListBlocksInput, RemoveBlockInput } from './block-list.schemas.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;

function normalized(store: StoreRow, kind: 'phone' | 'ip', value: string): string {
  if (kind === 'phone') {
    const phone = normalizePhone(value, store.country);
    if (!phone) throw fieldError('value', `value is not a valid phone number for ${store.country}`);
    return phone.e164;
  }
  const bare = value.replace(/^\[|\]$/g, '');
  if (!isIP(bare)) throw fieldError('value', 'value is not an IP address');
  // IPv4-mapped IPv6 is how Node reports IPv4 clients on a dual-stack socket: block the address itself.
  return bare.toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
}

export async function listBlockedValues(deps: Pick<Deps, 'db'>, caller: Caller, input: Out<typeof ListBlocksInput>): Promise<Out<typeof BlockPage>> {
  const store = await storeOf(deps, caller, input.store_id);
  return { items: (await listBlocks(deps.db, store.id, input.kind)) as Out<typeof Block>[], has_more: false };
}

export async function addBlockedValue(deps: Pick<Deps, 'db' | 'clock'>, caller: Caller, input: Out<typeof AddBlockInput>): Promise<Out<typeof BlockPage>> {
  const store = await storeOf(deps, caller, input.store_id);
  await insertBlock(deps.db, { store_id: store.id, kind: input.kind, value: normalized(store, input.kind, input.value), reason: input.reason ?? null, created_at: deps.clock.now().toISOString() });
  return { items: (await listBlocks(deps.db, store.id)) as Out<typeof Block>[], has_more: false };
}

export async function removeBlockedValue(deps: Pick<Deps, 'db'>, caller: Caller, input: Out<typeof RemoveBlockInput>): Promise<Out<typeof BlockPage>> {
  const store = await storeOf(deps, caller, input.store_id);
  await deleteBlock(deps.db, store.id, input.kind, normalized(store, input.kind, input.value));
  return { items: (await listBlocks(deps.db, store.id)) as Out<typeof Block>[], has_more: false };
}
