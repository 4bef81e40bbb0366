// Every free-text input follows the one text rule (issue 13 §2, issue 19 §3): an account operation's
// input refuses a control character in every string field, nested ones included (sections, items,
// images, packs, the buyer). The fields are read from each input's JSON Schema, so a field added
// later is held to the rule without touching this test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { toJsonSchema } from '@valibot/to-json-schema';
import { OPERATIONS } from '../../../src/use-cases/operations/index.ts';
import { CreateAccountSchema } from '../../../src/use-cases/accounts/accounts.use-case.ts';
import { decodeCursor } from '../../../src/use-cases/pagination.ts';
import { AppError } from '../../../src/errors.ts';

interface Node {
  type?: string | string[];
  properties?: Record<string, Node>;
  items?: Node;
  anyOf?: Node[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
}
type Path = (string | number)[];

/** Every string in the schema, with its path (an array's item is index 0) and whether JSON Schema shows a format for it. */
function stringFields(node: Node, path: Path, out: { path: Path; formatted: boolean }[]): void {
  for (const branch of node.anyOf ?? []) stringFields(branch, path, out);
  if (node.type === 'string') out.push({ path, formatted: node.enum !== undefined || node.const !== undefined || node.format !== undefined || node.pattern !== undefined });
  for (const [key, child] of Object.entries(node.properties ?? {})) stringFields(child, [...path, key], out);
  if (node.items) stringFields(node.items, [...path, 0], out);
}

/** An input holding only `value` at `path`: the other fields are missing, which is beside the point. */
function inputWith(path: Path, value: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let parent: Record<string | number, unknown> = root;
  path.forEach((key, i) => {
    const child = i === path.length - 1 ? value : typeof path[i + 1] === 'number' ? [] : {};
    parent[key] = child;
    parent = child as Record<string | number, unknown>;
  });
  return root;
}

const issuesAt = (schema: v.GenericSchema, path: Path, value: string) => {
  const result = v.safeParse(schema, inputWith(path, value));
  return result.success ? [] : result.issues.filter((issue) => v.getDotPath(issue) === path.join('.'));
};

/** ESC (a CSI sequence), BEL, a C1 CSI, NUL: each in the middle of a plain word. */
const CONTROLS = ['Fa\u001b[2Kja', 'Fa\u0007ja', 'Fa\u009b2Kja', 'Fa\u0000ja'];
/** Plain words a free-text field accepts (a few have a minimum length or a small maximum). */
const PLAIN = ['Faja', 'Fajas reductoras'];

test('every account operation refuses a control character in every string field, and a free-text field says why', () => {
  const failures: string[] = [];
  let checked = 0;
  for (const op of OPERATIONS) {
    const fields: { path: Path; formatted: boolean }[] = [];
    stringFields(toJsonSchema(op.input, { errorMode: 'ignore' }) as Node, [], fields);
    for (const { path, formatted } of fields) {
      const name = `${op.name}.${path.join('.')}`;
      // A cursor is an opaque token the list decodes (invalid_cursor), never text that is stored.
      if (path.join('.') === 'cursor') {
        for (const value of CONTROLS) assert.throws(() => decodeCursor(value, 2), (e: unknown) => e instanceof AppError && e.code === 'invalid_cursor', name);
        continue;
      }
      // A field with a format of its own (a UUID, an enum, a slug, a date, a colour, a domain, a
      // timezone) may refuse for that reason; free text must name the rule.
      const freeText = !formatted && PLAIN.some((word) => issuesAt(op.input, path, word).length === 0);
      for (const value of CONTROLS) {
        checked++;
        const issues = issuesAt(op.input, path, value);
        if (issues.length === 0) failures.push(`${name} accepts ${JSON.stringify(value)}`);
        else if (freeText && !issues.some((issue) => /control characters/.test(issue.message)))
          failures.push(`${name} refuses ${JSON.stringify(value)} but says ${issues.map((i) => i.message).join('; ')}`);
      }
    }
  }
  assert.ok(checked > 400, `${checked} field checks`);
  assert.deepEqual(failures, []);
});

test('the nested free-text fields are reached: sections and their items, images, packs, the buyer', () => {
  const paths = new Set<string>();
  for (const op of OPERATIONS) {
    const fields: { path: Path; formatted: boolean }[] = [];
    stringFields(toJsonSchema(op.input, { errorMode: 'ignore' }) as Node, [], fields);
    for (const { path } of fields) paths.add(`${op.name}.${path.join('.')}`);
  }
  for (const path of [
    'create_landing_page.sections.0.heading',
    'set_landing_sections.sections.0.body',
    'set_landing_sections.sections.0.items.0.title',
    'set_landing_sections.sections.0.items.0.text',
    'create_product.images.0.alt',
    'set_product_packs.packs.0.label',
    'create_order.buyer.nombre',
    'update_whatsapp_settings.templates.order_created',
  ])
    assert.ok(paths.has(path), path);
});

test('a bidi control in a free-text field is dropped and a one-line field keeps no line break', () => {
  const product = OPERATIONS.find((op) => op.name === 'set_product_stock')!;
  const parsed = v.parse(product.input, { product_id: '0190a3c2-4b5e-7f00-8000-000000000001', quantity: 3, reason: 'restock\u202E kcots\nnext' }) as { reason: string };
  assert.equal(parsed.reason, 'restock kcots next');
  const page = OPERATIONS.find((op) => op.name === 'set_landing_sections')!;
  const sections = v.parse(page.input, { landing_page_id: '0190a3c2-4b5e-7f00-8000-000000000001', sections: [{ type: 'text', body: 'uno\ndos' }] }) as { sections: { body: string }[] };
  assert.equal(sections.sections[0]!.body, 'uno\ndos', 'a paragraph keeps its line breaks');
});

test('an account name refuses a control character like every other name', () => {
  const result = v.safeParse(CreateAccountSchema, { name: 'Acme\u001b]0;pwned\u0007' });
  assert.equal(result.success, false);
  assert.match(result.issues![0]!.message, /name must not contain control characters/);
});
