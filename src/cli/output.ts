// CLI output: with --json exactly one JSON document on stdout; human text otherwise.
// Errors go to stderr; exit 1 for failures, 2 for usage errors (SPEC 9).
import { Command } from 'commander';
import { AppError } from '../errors.ts';
import { baseUrlIsExplicit, loadConfig, type Config, type ConfigFlags } from '../config.ts';
import type { App } from '../app.ts';
import { terminalText, terminalValue } from '../domain/terminal-text.ts';

export interface GlobalOptions {
  db?: string;
  databaseUrl?: string;
  json?: boolean;
}

export const globals = (cmd: Command): GlobalOptions => cmd.optsWithGlobals() as GlobalOptions;

/**
 * A value as human output shows it: control, bidi and invisible characters escaped, line breaks
 * too, so a stored value can neither drive the terminal nor start a line of its own (issue 19 §3).
 * Every value a command interpolates into its own text goes through this.
 */
export const shown = (value: unknown): string => terminalValue(String(value ?? '-'));

function human(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return `${indent}-`;
  if (Array.isArray(value)) {
    if (value.length === 0) return `${indent}(none)`;
    return value.map((item) => (typeof item === 'object' && item !== null ? `${human(item, indent)}\n` : `${indent}${shown(item)}`)).join('\n');
  }
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => (typeof v === 'object' && v !== null && !(Array.isArray(v) && v.every((x) => typeof x !== 'object')) ? `${indent}${shown(k)}:\n${human(v, `${indent}  `)}` : `${indent}${shown(k)}: ${Array.isArray(v) ? v.map(shown).join(', ') || '(none)' : shown(v)}`))
      .join('\n');
  }
  return `${indent}${shown(value)}`;
}

/** Human text is escaped once more as a whole (its own line feeds kept), whatever a command built; --json is exact JSON. */
export function print(opts: GlobalOptions, value: unknown, text?: string): void {
  if (opts.json) return void process.stdout.write(`${JSON.stringify(value)}\n`);
  const out = terminalText(text ?? human(value));
  process.stdout.write(`${out}\n`);
  // A URL built from a base URL nobody configured says where it came from (issue 23 §5).
  if (baseUrlNote && out.includes(baseUrlNote.url)) process.stderr.write(`note: ${baseUrlNote.text}\n`);
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause === undefined ? '' : `\ncaused by: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}${causeOf(cause)}`;
}

/** With --json, a failure is one JSON document on stdout too (issue 14): scripts read the error, not only the exit code. */
const wantsJson = () => process.argv.slice(2).includes('--json');

export function printJsonError(code: string, message: string, details?: unknown): void {
  if (wantsJson()) process.stdout.write(`${JSON.stringify({ error: { code, message, ...(details ? { details } : {}) } })}\n`);
}

export function fail(error: unknown): never {
  if (error instanceof AppError && error.expose) printJsonError(error.code, error.message, error.details);
  else printJsonError('internal', error instanceof AppError ? error.message : `unexpected: ${error instanceof Error ? error.message : String(error)}`);
  // A message may quote what the caller or the database gave: escaped like any value (issue 19 §3).
  if (error instanceof AppError && error.expose) {
    const details = error.details?.map((d) => `  ${shown(d.field)}: ${shown(d.message)}`).join('\n');
    process.stderr.write(`error: ${shown(error.message)}${details ? `\n${details}` : ''}\n`);
    process.exit(error.code === 'invalid_input' || error.code === 'invalid_cursor' ? 2 : 1);
  }
  // Unexpected (a bug, a database error): the cause goes with the message, stack included, once.
  if (error instanceof AppError) process.stderr.write(`error: ${shown(error.message)}\n`);
  else process.stderr.write(`error: unexpected: ${terminalText(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}${causeOf(error)}`)}\n`);
  process.exit(1);
}

export function config(opts: GlobalOptions, flags: ConfigFlags = {}): Config {
  return loadConfig({ db: opts.db, databaseUrl: opts.databaseUrl, ...flags });
}

/**
 * The public base URL the CLI's answers name (a landing's URL, a receiver path): the one configured
 * here (--base-url, CODRAIL_BASE_URL), else the one `codrail serve` recorded on this database, else
 * this process's default. A shell without the server's environment prints the server's URLs.
 */
async function withServerBaseUrl(app: App): Promise<App> {
  if (baseUrlIsExplicit({})) return app;
  const { serverSetting } = await import('../db/queries/server-settings.queries.ts');
  const recorded = await serverSetting(app.db, 'base_url');
  const url = recorded ?? app.config.baseUrl;
  baseUrlNote = {
    url,
    text: recorded
      ? `URLs use ${url}, the base URL \`codrail serve\` recorded on this database; set CODRAIL_BASE_URL to name another.`
      : `URLs use ${url}, this shell's default: CODRAIL_BASE_URL is not set and no \`codrail serve\` has recorded its URL on this database.`,
  };
  return recorded ? { ...app, config: Object.freeze({ ...app.config, baseUrl: recorded }) } : app;
}

/** Where the base URL of this command's answers came from, when nobody configured it. */
let baseUrlNote: { url: string; text: string } | undefined;

/** Opens the database (migrating it first, so every command works on a fresh file), runs, closes. */
export async function withApp<T>(cmd: Command, fn: (app: App) => Promise<T>, options: { migrate?: boolean } = {}): Promise<T> {
  const opts = globals(cmd);
  let app: App | undefined;
  let result: T;
  try {
    // Loaded here, not at startup: `codrail --help` must not pay for SQLite, kysely and pino (SPEC 14).
    const [{ openApp, migrate }, { createLogger }, { default: pino }] = await Promise.all([import('../app.ts'), import('../log.ts'), import('pino')]);
    app = await openApp(config(opts), { log: createLogger('warn', pino.destination(2)), metrics: false });
    if (options.migrate !== false) await migrate(app);
    // A command that migrates on its own (`codrail migrate`) may open a database that has no settings table yet.
    result = await fn(options.migrate === false ? app : await withServerBaseUrl(app));
  } catch (error) {
    await app?.close().catch(() => undefined);
    fail(error);
  }
  await app.close();
  return result;
}

/** Repeatable option collector: `--domain a --domain b`. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function intOption(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new AppError('invalid_input', `${name} must be a whole number`, [{ field: name, message: 'must be a whole number' }]);
    return Number(value);
  };
}

/** A numeric flag of a long-running command (the simulators): whole or decimal, 0..max, else a usage error. */
export function numberFlag(name: string, text: string, max: number, whole = true): number {
  const n = Number(text);
  if (!(whole ? /^\d+$/ : /^\d+(?:\.\d+)?$/).test(text.trim()) || n > max)
    throw new AppError('invalid_input', `--${name} must be a ${whole ? 'whole number' : 'number'} from 0 to ${max}`, [{ field: name, message: `0..${max}` }]);
  return n;
}
