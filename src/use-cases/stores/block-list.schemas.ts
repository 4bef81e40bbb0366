// A store's block list (SPEC 4.1 anti-fraud; issue 13 §5): buyer phones and client IPs whose orders
// are refused. Inputs and outputs of its REST routes and CLI commands (not MCP tools: the catalog
// is MCP-TOOLS.md's 62).
import * as v from 'valibot';
import { pageOf, textInput, uuidInput } from '../fields.ts';

export const BLOCK_KINDS = ['phone', 'ip'] as const;

const storeId = uuidInput('store_id', 'Store id (from list_stores).');
const kind = v.pipe(v.picklist(BLOCK_KINDS, 'kind must be phone or ip'), v.description('phone (a buyer number) or ip (a client address).'));
const value = textInput('value', 1, 100, "The phone (national or +code, for the store's country) or the IP address.");

export const ListBlocksInput = v.strictObject({ store_id: storeId, kind: v.optional(kind) });
export const AddBlockInput = v.strictObject({ store_id: storeId, kind, value, reason: v.optional(textInput('reason', 1, 200, 'Why, for whoever reads the list later.')) });
export const RemoveBlockInput = v.strictObject({ store_id: storeId, kind, value });

export const Block = v.object({
  store_id: v.string(),
  kind: v.picklist(BLOCK_KINDS),
  value: v.pipe(v.string(), v.description('As matched: a phone in E.164, an IP address in its canonical form.')),
  reason: v.nullable(v.string()),
  created_at: v.string(),
});

export const BlockPage = pageOf(Block);
