// Configuration: flags win over environment, environment over defaults (SPEC 2).
// This is the only module that reads process.env.
import { readFileSync } from 'node:fs';
import { AppError } from './errors.ts';
import { parseCurrency } from './domain/countries.ts';
import { parseFailpoints } from './failpoints.ts';
import {
  DEFAULT_FULFILLMENT_CONCURRENCY,
  DEFAULT_FULFILLMENT_GIVE_UP_AFTER_MS,
  DEFAULT_FULFILLMENT_TIMEOUT_MS,
  FULFILLMENT_BACKOFF_BASE_MS,
  FULFILLMENT_BACKOFF_MAX_MS,
  DEFAULT_RATE_IP_PER_MIN,
  DEFAULT_RATE_KEY_PER_MIN,
  DEFAULT_RATE_PHONE_PER_HOUR,
  HEADERS_TIMEOUT_MS,
  OAUTH_REGISTER_PER_HOUR,
  REQUEST_TIMEOUT_MS,
  SHUTDOWN_GRACE_MS,
  WEBHOOK_BACKOFF_BASE_MS,
  WEBHOOK_TIMEOUT_MS,
  DROPI_INTERVAL_MS,
} from './limits.ts';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  /** The SQLite file (unused when databaseUrl is set). */
  readonly dbFile: string;
  /** PostgreSQL's connection URL (SPEC 16): set, the database is there instead of dbFile. */
  readonly databaseUrl: string | undefined;
  /** Where the database is: databaseUrl, else dbFile (what src/db/connect.ts's openDatabase takes). */
  readonly database: string;
  readonly port: number;
  readonly host: string;
  /** Public base URL without a trailing slash ({base_url}). */
  readonly baseUrl: string;
  /** Number of trusted proxy hops in X-Forwarded-For; 0 = ignore the header. */
  readonly trustProxy: number;
  readonly fulfillmentUrl: string | undefined;
  readonly fulfillmentToken: string | undefined;
  /** Where every Dropi connection goes instead of Dropi's own hosts (a simulator, a proxy); unset = Dropi's host for the store's country. */
  readonly dropiUrl: string | undefined;
  /** The least gap between two requests of one Dropi key (Dropi locks a key after bursts). */
  readonly dropiIntervalMs: number;
  /** A base URL a seller gives a connection may be a private address (CODRAIL_PLATFORM_URLS_ALLOW_PRIVATE=1: development only). */
  readonly platformUrlsAllowPrivate: boolean;
  /** Shared secret of the platform's signed status webhooks; unset = the webhook answers 503. */
  readonly fulfillmentWebhookSecret: string | undefined;
  readonly fulfillmentTimeoutMs: number;
  readonly fulfillmentConcurrency: number;
  /** How long a push keeps trying before it is dead (issue 13: give up by time, so outages heal by themselves). */
  readonly fulfillmentGiveUpAfterMs: number;
  /** First retry delay; doubles per attempt up to a cap, with jitter. */
  readonly fulfillmentBackoffMs: number;
  /** The cap on the delay between two tries (a Retry-After longer than it is cut to it). */
  readonly fulfillmentBackoffMaxMs: number;
  readonly logLevel: LogLevel;
  readonly rateIpPerMin: number;
  readonly rateKeyPerMin: number;
  readonly ratePhonePerHour: number;
  /** OAuth dynamic client registrations per client IP per hour (OAUTH.md T29). */
  readonly rateRegisterPerHour: number;
  /** Currencies whose prices must be whole although ISO 4217 gives them decimals (e.g. COP). */
  readonly wholeCurrencies: ReadonlySet<string>;
  /** Base64 key sealing stored secrets (CODRAIL_SECRET_KEY); unset = the key file next to the database. */
  readonly secretKey: string | undefined;
  /** Older keys that still open what they sealed, until `codrail secrets rotate` (CODRAIL_SECRET_KEY_PREVIOUS). */
  readonly secretKeysPrevious: readonly string[];
  /** The WhatsApp Cloud API base, e.g. https://graph.facebook.com/v21.0; unset = messages stay queued. */
  readonly whatsappUrl: string | undefined;
  readonly whatsappToken: string | undefined;
  /** The Meta app secret that signs status webhooks (X-Hub-Signature-256); unset = the webhook answers 503. */
  readonly whatsappAppSecret: string | undefined;
  /** The token Meta echoes when subscribing the webhook (GET hub.verify_token). */
  readonly whatsappVerifyToken: string | undefined;
  /** Browser origins allowed on /api/mcp besides the base URL's and loopback ones (DNS-rebinding protection). */
  readonly mcpAllowedOrigins: readonly string[];
  /**
   * Development only: Client ID Metadata Documents may be read over http from loopback and private
   * addresses (CODRAIL_OAUTH_CIMD_ALLOW_PRIVATE=1). Off: https only, public addresses only.
   */
  readonly oauthCimdAllowPrivate: boolean;
  /**
   * Development only: webhook endpoints may be on loopback and private addresses, and on http from
   * loopback (CODRAIL_WEBHOOKS_ALLOW_PRIVATE=1). Off: https, public addresses only.
   */
  readonly webhooksAllowPrivate: boolean;
  /**
   * Development only: product image URLs may be on loopback and private addresses, and on http from
   * loopback (CODRAIL_IMAGE_URLS_ALLOW_PRIVATE=1). Off: https, public addresses only.
   */
  readonly imageUrlsAllowPrivate: boolean;
  /** A webhook delivery's deadline over connect, headers and body (default 10 s). */
  readonly webhookTimeoutMs: number;
  /** The first delay between two tries of a delivery; doubles per try, capped at an hour, with jitter. */
  readonly webhookBackoffMs: number;
  /** How long a client may take to send its request headers before the 408 (slow-header attacks; at most the request timeout). */
  readonly headersTimeoutMs: number;
  /** On SIGTERM, how long requests in flight may take before their connections are cut (SPEC 15). */
  readonly shutdownGraceMs: number;
  /** GET /metrics on this port (0 = any free port); unset = no metrics endpoint. */
  readonly metricsPort: number | undefined;
  readonly metricsHost: string;
  /** Tests only: where the outbox attempts fail on purpose (CODRAIL_FAILPOINTS, src/failpoints.ts). */
  readonly failpoints: string | undefined;
}

/** What the CLI may pass; every field optional, strings as typed on the command line. */
export interface ConfigFlags {
  db?: string | undefined;
  databaseUrl?: string | undefined;
  port?: string | number | undefined;
  host?: string | undefined;
  baseUrl?: string | undefined;
  trustProxy?: string | number | boolean | undefined;
  fulfillmentUrl?: string | undefined;
  dropiUrl?: string | undefined;
  dropiIntervalMs?: string | number | undefined;
  fulfillmentTimeoutMs?: string | number | undefined;
  fulfillmentConcurrency?: string | number | undefined;
  fulfillmentGiveUpAfter?: string | number | undefined;
  fulfillmentBackoffMs?: string | number | undefined;
  fulfillmentBackoffMaxMs?: string | number | undefined;
  logLevel?: string | undefined;
  rateIpPerMin?: string | number | undefined;
  rateKeyPerMin?: string | number | undefined;
  ratePhonePerHour?: string | number | undefined;
  rateRegisterPerHour?: string | number | undefined;
  wholeCurrencies?: string | undefined;
  whatsappUrl?: string | undefined;
  metricsPort?: string | number | undefined;
  metricsHost?: string | undefined;
  shutdownGraceMs?: string | number | undefined;
  webhookTimeoutMs?: string | number | undefined;
  webhookBackoffMs?: string | number | undefined;
  headersTimeoutMs?: string | number | undefined;
}

type Env = Record<string, string | undefined>;

const bad = (setting: string, message: string) =>
  new AppError('invalid_input', `Invalid configuration: ${setting} ${message}`, [{ field: setting, message }]);

function pick<T>(flag: T | undefined, env: string | undefined): T | string | undefined {
  if (flag !== undefined) return flag;
  return env === undefined || env === '' ? undefined : env;
}

function int(setting: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isInteger(n) || n < min || n > max) throw bad(setting, `must be an integer from ${min} to ${max}`);
  return n;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration: `72h`, `30m`, `45s`, `500ms`, `2d`, or a number of milliseconds. */
function duration(setting: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(String(value).trim());
  const ms = m ? Math.round(Number(m[1]) * UNIT_MS[m[2] ?? 'ms']!) : Number.NaN;
  if (!(ms >= min && ms <= max)) throw bad(setting, `must be a duration such as 72h, 30m, 45s or 500ms, from ${min} ms to ${max / 86_400_000} days`);
  return ms;
}

function trustProxyHops(value: unknown): number {
  if (value === undefined || value === false) return 0;
  if (value === true) return 1;
  const s = String(value).trim().toLowerCase();
  if (['', 'true', 'yes', 'on'].includes(s)) return 1;
  if (['false', 'no', 'off'].includes(s)) return 0;
  return int('trust-proxy', s, 0, 0, 10);
}

function baseUrl(value: string | undefined, host: string, port: number): string {
  if (value === undefined) {
    const h = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
    return `http://${h}:${port}`;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bad('base-url', 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad('base-url', 'must use http or https');
  if (url.search || url.hash || url.username || url.password) throw bad('base-url', 'must not carry a query, fragment or credentials');
  return url.href.replace(/\/+$/, '');
}

/** A setting only the environment gives: wrong, it is the server's configuration, not the command line (CLI exit 1, not 2). */
const badEnvironment = (setting: string, message: string) => new AppError('internal', `Invalid configuration: ${setting} ${message}`);

function secretKey(setting: string, value: string): string {
  if (Buffer.from(value.trim(), 'base64').length !== 32) throw badEnvironment(setting, 'must be 32 bytes in base64 (openssl rand -base64 32)');
  return value.trim();
}

/**
 * CODRAIL_SECRET_KEY, or the file CODRAIL_SECRET_KEY_FILE names (systemd's LoadCredential= puts
 * the key in such a file, so it is never in the unit or the environment of other processes).
 */
function secretKeySetting(env: Record<string, string | undefined>): string | undefined {
  if (env.CODRAIL_SECRET_KEY && env.CODRAIL_SECRET_KEY_FILE) throw badEnvironment('CODRAIL_SECRET_KEY_FILE', 'and CODRAIL_SECRET_KEY are both set: keep one');
  if (env.CODRAIL_SECRET_KEY) return secretKey('CODRAIL_SECRET_KEY', env.CODRAIL_SECRET_KEY);
  if (!env.CODRAIL_SECRET_KEY_FILE) return undefined;
  let text: string;
  try {
    text = readFileSync(env.CODRAIL_SECRET_KEY_FILE, 'utf8');
  } catch (error) {
    throw badEnvironment('CODRAIL_SECRET_KEY_FILE', `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return secretKey('CODRAIL_SECRET_KEY_FILE', text);
}

/** A PostgreSQL connection URL (`postgres://` or `postgresql://`); anything else names a SQLite file. */
export const isPostgresUrl = (where: string): boolean => /^postgres(ql)?:\/\//i.test(where);

function postgresUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!isPostgresUrl(value)) throw bad('database-url', 'must be a postgres:// or postgresql:// URL');
  try {
    new URL(value);
  } catch {
    throw bad('database-url', 'is not a valid URL');
  }
  return value;
}

/** A database URL as it may be shown (banners, answers, logs): without its password. */
export function withoutPassword(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (url.password) url.password = '***';
  return url.toString();
}

/** The database as it may be shown (banners, `migrate`'s answer). */
export function databaseLabel(config: Pick<Config, 'dbFile' | 'databaseUrl'>): string {
  return config.databaseUrl === undefined ? config.dbFile : withoutPassword(config.databaseUrl);
}

function httpUrl(setting: string, value: string | undefined): string | undefined {
  if (value !== undefined && !/^https?:\/\/[^\s]+$/.test(value)) throw bad(setting, 'must be an http(s) URL');
  return value?.replace(/\/+$/, '');
}

/** `https://app.example.com,https://inspector.example` → their origins; `*` allows every origin. */
function originList(value: string | undefined): string[] {
  if (!value) return [];
  return value.split(',').map((o) => o.trim()).filter(Boolean).map((o) => {
    if (o === '*') return o;
    try {
      return new URL(o).origin;
    } catch {
      throw bad('CODRAIL_MCP_ALLOWED_ORIGINS', `has ${o}, which is not an origin such as https://app.example.com`);
    }
  });
}

function failpoints(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const parsed = parseFailpoints(value);
  if (typeof parsed === 'string') throw badEnvironment('CODRAIL_FAILPOINTS', parsed);
  return value;
}

function currencyList(value: string | undefined): ReadonlySet<string> {
  if (value === undefined) return new Set();
  const codes = value.split(',').map((c) => c.trim().toUpperCase()).filter(Boolean);
  for (const code of codes) if (!parseCurrency(code)) throw bad('whole-currencies', `${code} is not an ISO 4217 currency code`);
  return new Set(codes);
}

export function loadConfig(flags: ConfigFlags = {}, env: Env = process.env): Config {
  const host = String(pick(flags.host, env.HOST) ?? '127.0.0.1');
  const port = int('port', pick(flags.port, env.PORT), 3000, 0, 65535);
  const logLevel = String(pick(flags.logLevel, env.LOG_LEVEL) ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw bad('log-level', `must be one of ${LOG_LEVELS.join(', ')}`);
  const fulfillmentUrl = pick(flags.fulfillmentUrl, env.CODRAIL_FULFILLMENT_URL) as string | undefined;
  if (fulfillmentUrl !== undefined && !/^https?:\/\//.test(fulfillmentUrl)) throw bad('fulfillment-url', 'must be an http(s) URL');
  const dbFile = String(pick(flags.db, env.CODRAIL_DB) ?? './codrail.sqlite');
  // `--db postgres://…` means PostgreSQL too: what someone who typed it wants, not a file of that name.
  const databaseUrl = postgresUrl((pick(flags.databaseUrl, env.CODRAIL_DATABASE_URL) as string | undefined) ?? (isPostgresUrl(dbFile) ? dbFile : undefined));
  const secret = secretKeySetting(env);
  // Instances sharing one PostgreSQL must seal and open secrets with one key; a key file beside a
  // SQLite database has no equivalent there, so the key is given, never made up per machine.
  if (databaseUrl !== undefined && secret === undefined)
    throw badEnvironment('CODRAIL_SECRET_KEY_FILE', 'is needed with CODRAIL_DATABASE_URL: every instance on one PostgreSQL must use the same sealing key (openssl rand -base64 32 > /etc/codrail/secret.key)');
  return Object.freeze({
    dbFile,
    databaseUrl,
    database: databaseUrl ?? dbFile,
    port,
    host,
    baseUrl: baseUrl(pick(flags.baseUrl, env.CODRAIL_BASE_URL) as string | undefined, host, port),
    trustProxy: trustProxyHops(pick(flags.trustProxy, env.CODRAIL_TRUST_PROXY)),
    fulfillmentUrl,
    fulfillmentToken: env.CODRAIL_FULFILLMENT_TOKEN || undefined,
    dropiUrl: httpUrl('dropi-url', pick(flags.dropiUrl, env.CODRAIL_DROPI_URL) as string | undefined),
    dropiIntervalMs: int('dropi-interval-ms', pick(flags.dropiIntervalMs, env.CODRAIL_DROPI_INTERVAL_MS), DROPI_INTERVAL_MS, 0, 60_000),
    platformUrlsAllowPrivate: env.CODRAIL_PLATFORM_URLS_ALLOW_PRIVATE === '1',
    fulfillmentWebhookSecret: env.CODRAIL_FULFILLMENT_WEBHOOK_SECRET || undefined,
    fulfillmentTimeoutMs: int('fulfillment-timeout-ms', pick(flags.fulfillmentTimeoutMs, env.CODRAIL_FULFILLMENT_TIMEOUT_MS), DEFAULT_FULFILLMENT_TIMEOUT_MS, 100, 120_000),
    fulfillmentConcurrency: int('fulfillment-concurrency', pick(flags.fulfillmentConcurrency, env.CODRAIL_FULFILLMENT_CONCURRENCY), DEFAULT_FULFILLMENT_CONCURRENCY, 1, 64),
    fulfillmentBackoffMs: int('fulfillment-backoff-ms', pick(flags.fulfillmentBackoffMs, env.CODRAIL_FULFILLMENT_BACKOFF_MS), FULFILLMENT_BACKOFF_BASE_MS, 1, 600_000),
    fulfillmentBackoffMaxMs: int('fulfillment-backoff-max-ms', pick(flags.fulfillmentBackoffMaxMs, env.CODRAIL_FULFILLMENT_BACKOFF_MAX_MS), FULFILLMENT_BACKOFF_MAX_MS, 1, 3_600_000),
    fulfillmentGiveUpAfterMs: duration('fulfillment-give-up-after', pick(flags.fulfillmentGiveUpAfter, env.CODRAIL_FULFILLMENT_GIVE_UP_AFTER), DEFAULT_FULFILLMENT_GIVE_UP_AFTER_MS, 100, 365 * 86_400_000),
    logLevel,
    rateIpPerMin: int('rate-ip-per-min', pick(flags.rateIpPerMin, env.CODRAIL_RATE_IP_PER_MIN), DEFAULT_RATE_IP_PER_MIN, 1, 1_000_000),
    rateKeyPerMin: int('rate-key-per-min', pick(flags.rateKeyPerMin, env.CODRAIL_RATE_KEY_PER_MIN), DEFAULT_RATE_KEY_PER_MIN, 1, 1_000_000),
    ratePhonePerHour: int('rate-phone-per-hour', pick(flags.ratePhonePerHour, env.CODRAIL_RATE_PHONE_PER_HOUR), DEFAULT_RATE_PHONE_PER_HOUR, 1, 1_000_000),
    rateRegisterPerHour: int('rate-register-per-hour', pick(flags.rateRegisterPerHour, env.CODRAIL_RATE_REGISTER_PER_HOUR), OAUTH_REGISTER_PER_HOUR, 1, 1_000_000),
    wholeCurrencies: currencyList(pick(flags.wholeCurrencies, env.CODRAIL_WHOLE_CURRENCIES) as string | undefined),
    secretKey: secret,
    secretKeysPrevious: (env.CODRAIL_SECRET_KEY_PREVIOUS ?? '')
      .split(',')
      .filter((k) => k.trim())
      .map((k, i) => secretKey(`CODRAIL_SECRET_KEY_PREVIOUS[${i}]`, k)),
    whatsappUrl: httpUrl('whatsapp-url', pick(flags.whatsappUrl, env.CODRAIL_WHATSAPP_URL) as string | undefined),
    whatsappToken: env.CODRAIL_WHATSAPP_TOKEN || undefined,
    whatsappAppSecret: env.CODRAIL_WHATSAPP_APP_SECRET || undefined,
    whatsappVerifyToken: env.CODRAIL_WHATSAPP_VERIFY_TOKEN || undefined,
    mcpAllowedOrigins: originList(env.CODRAIL_MCP_ALLOWED_ORIGINS),
    oauthCimdAllowPrivate: env.CODRAIL_OAUTH_CIMD_ALLOW_PRIVATE === '1',
    webhooksAllowPrivate: env.CODRAIL_WEBHOOKS_ALLOW_PRIVATE === '1',
    imageUrlsAllowPrivate: env.CODRAIL_IMAGE_URLS_ALLOW_PRIVATE === '1',
    webhookTimeoutMs: int('webhook-timeout-ms', pick(flags.webhookTimeoutMs, env.CODRAIL_WEBHOOK_TIMEOUT_MS), WEBHOOK_TIMEOUT_MS, 100, 60_000),
    webhookBackoffMs: int('webhook-backoff-ms', pick(flags.webhookBackoffMs, env.CODRAIL_WEBHOOK_BACKOFF_MS), WEBHOOK_BACKOFF_BASE_MS, 1, 600_000),
    headersTimeoutMs: int('headers-timeout-ms', pick(flags.headersTimeoutMs, env.CODRAIL_HEADERS_TIMEOUT_MS), HEADERS_TIMEOUT_MS, 100, REQUEST_TIMEOUT_MS),
    shutdownGraceMs: int('shutdown-grace-ms', pick(flags.shutdownGraceMs, env.CODRAIL_SHUTDOWN_GRACE_MS), SHUTDOWN_GRACE_MS, 0, 600_000),
    metricsPort: pick(flags.metricsPort, env.CODRAIL_METRICS_PORT) === undefined ? undefined : int('metrics-port', pick(flags.metricsPort, env.CODRAIL_METRICS_PORT), 0, 0, 65535),
    metricsHost: String(pick(flags.metricsHost, env.CODRAIL_METRICS_HOST) ?? '127.0.0.1'),
    failpoints: failpoints(env.CODRAIL_FAILPOINTS),
  });
}

/** What a terminal app reads from its environment: NO_COLOR (no-color.org) and the locale (LC_ALL, LC_MESSAGES, LANG). */
export function terminalPreferences(env: Env = process.env): { noColor: boolean; locale: string } {
  return { noColor: Boolean(env.NO_COLOR), locale: env.LC_ALL || env.LC_MESSAGES || env.LANG || '' };
}

/**
 * The environment the console's libraries load in, set before they load. ink draws only the last
 * frame when CI is set (is-in-ci reads it once, at import): a person at a real terminal whose shell
 * exports CI would see a blank console, so on a terminal CI is cleared for this process. React and
 * ink take their production builds unless NODE_ENV says otherwise (the development builds check
 * and warn, at a cost to start-up and to every frame).
 */
export function prepareInteractiveTerminal(isTerminal: boolean, env: Env = process.env): void {
  if (isTerminal) {
    delete env.CI;
    delete env.CONTINUOUS_INTEGRATION;
  }
  env.NODE_ENV ??= 'production';
}

/** Whether the public base URL was given (flag or CODRAIL_BASE_URL) rather than derived from host and port. */

export function baseUrlIsExplicit(flags: Pick<ConfigFlags, 'baseUrl'>, env: Env = process.env): boolean {
  return pick(flags.baseUrl, env.CODRAIL_BASE_URL) !== undefined;
}

/** With port 0 the real port is known only after listen: derive the base URL again. */
export function withListenPort(config: Config, port: number, explicitBaseUrl: boolean): Config {
  if (explicitBaseUrl || config.port === port) return config;
  return Object.freeze({ ...config, port, baseUrl: baseUrl(undefined, config.host, port) });
}
