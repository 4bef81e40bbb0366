// Opaque keyset cursors and page sizes of the account list operations (MCP-TOOLS.md §5.8): a cursor
// is base64url JSON of the last item's sort key; limits out of range are clamped, not refused.
import * as v from 'valibot';
import { AppError } from '../errors.ts';
import { TOOL_LIST_DEFAULT_LIMIT, TOOL_LIST_MAX_LIMIT } from '../limits.ts';

export interface Page<T> {
  items: T[];
  has_more: boolean;
  next_cursor?: string;
}

const MAX_CURSOR_CHARS = 1_000;

export const cursorInput = v.optional(
  v.pipe(v.string('cursor must be a string'), v.description("The last page's next_cursor.")),
);

export const limitInput = v.optional(
  v.pipe(
    v.number('limit must be a number'),
    v.integer('limit must be a whole number'),
    v.description(`1-${TOOL_LIST_MAX_LIMIT}, default ${TOOL_LIST_DEFAULT_LIMIT}.`),
  ),
);

export const invalidCursor = () =>
  new AppError('invalid_cursor', 'cursor is not a cursor returned by this list', [{ field: 'cursor', message: 'unknown or malformed cursor' }]);

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return TOOL_LIST_DEFAULT_LIMIT;
  return Math.min(TOOL_LIST_MAX_LIMIT, Math.max(1, Math.trunc(limit)));
}

export const encodeCursor = (key: readonly string[]): string => Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

/** The sort key a cursor carries, exactly `arity` strings; anything else is `invalid_cursor`. */
export function decodeCursor(text: string | undefined, arity: number): string[] | undefined {
  if (text === undefined) return undefined;
  if (text.length === 0 || text.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(text)) throw invalidCursor();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(value) || value.length !== arity || !value.every((v) => typeof v === 'string')) throw invalidCursor();
  return value as string[];
}

/** Cuts a page fetched with one extra row into items, has_more and the next cursor. */
export function toPage<R, T>(rows: readonly R[], limit: number, key: (row: R) => readonly string[], view: (row: R) => T): Page<T> {
  const has_more = rows.length > limit;
  const kept = rows.slice(0, limit);
  const page: Page<T> = { items: kept.map(view), has_more };
  if (has_more) page.next_cursor = encodeCursor(key(kept[kept.length - 1]!));
  return page;
}

/** The (created_at, id) position a list cursor carries. */
export function pageAfter(cursor: string | undefined): { createdAt: string; id: string } | undefined {
  const key = decodeCursor(cursor, 2);
  return key ? { createdAt: key[0]!, id: key[1]! } : undefined;
}

/** Cuts rows fetched with one extra into a page keyed by (created_at, id). */
export const keysetPage = <R extends { created_at: string; id: string }, T>(rows: readonly R[], limit: number, view: (row: R) => T): Page<T> =>
  toPage(rows, limit, (r) => [r.created_at, r.id], view);
