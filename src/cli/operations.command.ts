// The CLI shell of the account operations (src/use-cases/operations): one command per operation,
// derived from its declaration. Positionals are the `<field>`s of its `cli` string; every other
// input field is an option typed by the input's JSON Schema (`--kebab-name`, repeated for lists,
// JSON text / @file / @- for objects); `--account ID` acts as that account. Lists print their items
// (an array, SPEC 9) and say on stderr how to get the next page.
import { closeSync, openSync, readSync } from 'node:fs';
import type { Command } from 'commander';
import { Option } from 'commander';
import { UUID_PATTERN } from '../ids.ts';
import { AppError } from '../errors.ts';
import type { Operation } from '../use-cases/operations/operation.ts';
import { CLI_OVERRIDES, OPERATION_GROUPS, coerce, type JsonSchema } from './operation-options.ts';
import { globals, print, withApp } from './output.ts';

const kebab = (field: string) => field.replace(/_/g, '-');

/** The group commands, with their descriptions, so the root help lists them before any is loaded. */
export function registerGroups(program: Command): void {
  for (const [name, description] of Object.entries(OPERATION_GROUPS))
    if (!program.commands.some((c) => c.name() === name)) program.command(name).description(description);
}

/**
 * The derived group a command line names, and the command under it (`codrail --db x --json stores
 * create …` → stores, create); undefined when it names no derived group.
 */
export function requestedGroup(argv: readonly string[]): { group: string; command: string | undefined } | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    // The global options that take a value (program.ts): their value is not a command word.
    if (a === '--db' || a === '--database-url') i++;
    else if (!a.startsWith('-')) words.push(a);
  }
  const [group, command] = words[0] === 'help' ? words.slice(1) : words;
  return group !== undefined && Object.hasOwn(OPERATION_GROUPS, group) ? { group, command } : undefined;
}

function subcommand(parent: Command, name: string): Command {
  return parent.commands.find((c) => c.name() === name) ?? parent.command(name);
}

interface Field {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

const isPage = (value: unknown): value is { items: unknown[]; has_more: boolean; next_cursor?: string } =>
  typeof value === 'object' && value !== null && Array.isArray((value as { items?: unknown }).items) && typeof (value as { has_more?: unknown }).has_more === 'boolean';

function describe(field: Field): string {
  const parts = [field.schema.description ?? field.name];
  if (field.schema.enum) parts.push(`(${field.schema.enum.join(' | ')})`);
  if (field.schema.type === 'object' || field.schema.items?.type === 'object') parts.push('[JSON, @file or @-]');
  return parts.join(' ');
}

/**
 * An upload's file, named by its positional (`products images add <product_id> <file>`; `-` is
 * standard input): read up to the operation's limit and no further, so a huge file is refused
 * without being read whole.
 */
function readUpload(field: string, path: string, maxBytes: number): Uint8Array {
  let fd: number;
  try {
    fd = path === '-' ? 0 : openSync(path, 'r');
  } catch (error) {
    throw new AppError('invalid_input', `cannot read ${path}`, [{ field, message: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }]);
  }
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(64 * 1024);
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch (error) {
        // A non-blocking standard input with nothing yet: wait a little, without spinning.
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
          continue;
        }
        throw new AppError('invalid_input', `cannot read ${path}`, [{ field, message: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }]);
      }
      if (n === 0) break;
      size += n;
      const limit = `${Math.round((maxBytes / (1024 * 1024)) * 10) / 10} MB`;
      if (size > maxBytes) throw new AppError('invalid_input', `${field} is larger than ${limit}`, [{ field, message: `${field} is larger than ${limit}` }]);
      chunks.push(chunk.subarray(0, n));
    }
    return Buffer.concat(chunks, size);
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

/** Adds one operation's command under its group (`products packs set <product_id>`). */
function registerOperation(program: Command, op: Operation, jsonSchema: JsonSchema): void {
  const words = op.cli!.split(' ');
  const positionals = words.filter((w) => w.startsWith('<')).map((w) => w.slice(1, -1));
  const path = words.filter((w) => !w.startsWith('<'));
  let parent = program;
  for (const word of path.slice(0, -1)) parent = subcommand(parent, word);
  const cmd = parent.command(path.at(-1)!).description((op.help ?? op.description).replace(/ Scope: [^ ]+\.$/, ''));
  const props = jsonSchema.properties ?? {};
  const required = new Set(jsonSchema.required ?? []);
  for (const name of positionals) cmd.argument(`<${kebab(name)}>`, props[name]?.description ?? name);
  const options = new Map<string, Field & { attribute: string; repeat: boolean; parse?: ((text: string) => unknown) | undefined }>();
  for (const [name, schema] of Object.entries(props)) {
    if (positionals.includes(name)) continue;
    const field = { name, schema, required: required.has(name) };
    const override = CLI_OVERRIDES[op.name]?.[name];
    const repeat = override?.repeat ?? (schema.type === 'array' && schema.items?.type !== 'object');
    const flag = override?.flag ?? (schema.type === 'boolean' ? `--${kebab(name)} [bool]` : `--${kebab(name)} <${schema.type === 'array' ? 'value' : schema.type === 'integer' || schema.type === 'number' ? 'n' : 'value'}>`);
    const option = new Option(flag, describe(field) + (repeat ? ' (repeatable)' : ''));
    if (field.required) option.makeOptionMandatory();
    if (repeat) option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
    cmd.addOption(option);
    options.set(name, { ...field, attribute: option.attributeName(), repeat, parse: override?.parse });
  }
  cmd.option('--account <id>', 'act as this account: its ids only (default: the operator, every account)');
  cmd.action(async (...args: unknown[]) => {
    const command = args.at(-1) as Command;
    const values = command.opts() as Record<string, unknown>;
    const input: Record<string, unknown> = {};
    positionals.forEach((name, i) => (input[name] = op.upload?.field === name ? readUpload(name, String(args[i]), op.upload.maxBytes) : coerce(name, props[name] ?? {}, String(args[i]))));
    for (const [name, o] of options) {
      const raw = values[o.attribute];
      if (raw === undefined) continue;
      const one = (text: string) => (o.parse ? o.parse(text) : coerce(name, o.repeat ? (o.schema.items ?? {}) : o.schema, text));
      input[name] = o.repeat ? (raw as string[]).map(one) : raw === true ? true : one(String(raw));
    }
    const account = values.account as string | undefined;
    const result = await withApp(command, async (app) => {
      if (account !== undefined && !UUID_PATTERN.test(account)) throw new AppError('invalid_input', 'Invalid data', [{ field: 'account', message: '--account must be an account id (UUID)' }]);
      const [{ OPERATOR, operatorAs }, { parseWith }] = await Promise.all([import('../use-cases/caller.ts'), import('../use-cases/validate.ts')]);
      const caller = account === undefined ? OPERATOR : operatorAs(account.toLowerCase());
      return op.run(app, caller, parseWith(op.input, input));
    });
    if (op.revealsSecret !== undefined && !globals(command).json) process.stderr.write(`${op.revealsSecret}\n`);
    if (isPage(result)) {
      print(globals(command), result.items);
      if (result.has_more) process.stderr.write(`more: add --cursor ${result.next_cursor}\n`);
    } else print(globals(command), result);
  });
}

/** Every operation with a `cli` binding (in `group` when given) becomes a command; the schemas are converted once here. */
export async function registerOperations(program: Command, operations: readonly Operation[], group?: string): Promise<void> {
  const { toJsonSchema } = await import('@valibot/to-json-schema');
  for (const op of operations) {
    if (!op.cli || (group !== undefined && op.cli.split(' ')[0] !== group)) continue;
    const schema = toJsonSchema(op.input, { errorMode: 'ignore', typeMode: 'output' }) as JsonSchema;
    registerOperation(program, op, schema);
  }
}
