import * as v from 'valibot';
import { AppError, type FieldIssue } from '../errors.ts';

/** A UUID input field with its description (ids are UUIDs, seed 2.1). */
export const uuidInput = (field: string, description: string) =>
  v.pipe(v.string(`${field} must be a string`), v.uuid(`${field} must be a UUID`), v.description(description));

/**
 * An order's id or its number as people say it (1001, TD-1001): checked here for shape, resolved
 * inside the caller's account by tenancy's orderOf (issue 24 §7).
 */
export const orderRefInput = (field: string, description: string) =>
  v.pipe(
    v.string(`${field} must be a string`),
    v.trim(),
    // Order numbers start at FIRST_ORDER_NUMBER (1001): "pedido-1" is no order of anyone's.
    v.check((t) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(t) || /^[A-Za-z0-9-]{0,10}[1-9]\d{3,11}$/.test(t), `${field} must be an order id (UUID) or an order number such as 1001 or TD-1001`),
    v.description(description),
  );

const OBJECT_TYPES = new Set(['object', 'strict_object', 'loose_object']);

/** valibot says `Invalid key: Expected "slug" but received undefined`; say which field and what is wrong. */
function messageOf(issue: v.BaseIssue<unknown>, field: string): string {
  if (issue.kind === 'schema' && OBJECT_TYPES.has(issue.type) && issue.path?.length) {
    if (issue.received === 'undefined') return `${field} is required`;
    if (issue.expected === 'never') return `${field} is not a known field`;
  }
  return issue.message;
}

/** Valibot issues → one `details` item per bad field (the first problem of each field). */
export function issuesToDetails(issues: readonly v.BaseIssue<unknown>[]): FieldIssue[] {
  const seen = new Map<string, string>();
  for (const issue of issues) {
    const field = v.getDotPath(issue) ?? '(body)';
    if (!seen.has(field)) seen.set(field, messageOf(issue, field));
  }
  return [...seen].map(([field, message]) => ({ field, message }));
}

/** Parses with a valibot schema; a failure is a 400 `invalid_input` with field details. */
export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown, message = 'Invalid data'): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  throw new AppError('invalid_input', message, issuesToDetails(result.issues));
}
