// A local Dropi (../shared/DROPI.md; contract.ts) for tests and developers (`codrail fulfillment sim
// --dialect dropi`): Dropi's paths, `dropi-integration-key` header, `isSuccess` envelopes, exact
// department and city strings, numeric ids, no idempotency, unsigned webhooks, and Dropi's ways of
// failing. node:http only: it must start in milliseconds.
//
// An API request (anything outside /_sim/) meets the misbehaviours in this order:
//   1. it is counted for its key's stats: requests, in flight (up at the start, down once the answer
//      is written or the client left), the least gap between two request starts; a create whose JSON
//      body has a string shop_order_id counts one create call for that reference, whatever follows;
//   2. lockout: a locked key answers 429 `Too Many Attempts.` (no Retry-After) until its lock ends;
//      requests during the lock do not extend it. Otherwise the request enters the key's burst window
//      (only requests let through count); one more than `max` within `windowMs` locks the key for
//      `lockMs`, that request included, and empties the window;
//   3. the key: missing or not accepted → 401 `Access denied`; expired (expireAfter, expireToken) →
//      401 `Token is Expired`;
//   4. failRate → 500 `Internal Server Error`;
//   5. the request itself (400, 404, 200);
//   6. lostAnswerRate, on successful creates only: the order exists, its answer is held lateMs and
//      written only if the client is still there; latencyMs delays every API answer.
// The control plane (/_sim/) needs no key and is never delayed, locked or failed.
//
// Real time paces the lockout and the delays; the clock (a test can pin it) dates the orders, which is
// what the order list filters on. Keys are never logged or returned: a key is its sha256 prefix (and
// its last four characters when it is long enough that they give nothing away).
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as v from 'valibot';
import { systemClock, type Clock } from '../../clock.ts';
import { OutboundClient } from '../../http/outbound/outbound-client.ts';
import { checkRate, readCappedBody, startSimServer, type SimServer } from '../../simulators/sim-server.ts';
import {
  DROPI_CANCELLED,
  DROPI_COD,
  DROPI_DATE_FILTER,
  DROPI_KEY_HEADER,
  DROPI_NEW_STATUS,
  DROPI_PAGE_SIZE,
  DROPI_PATHS,
  DROPI_TOKEN_EXPIRED,
  DROPI_TOO_MANY,
  DropiCreateOrderSchema,
  DropiDepartmentSchema,
  type DropiCreateOrder,
} from './contract.ts';

export interface DropiSimOptions {
  port?: number;
  host?: string;
  /** Accepted integration keys, each its own Dropi account (it sees only its orders) unless `accounts` groups them. Undefined: any non-empty key. */
  tokens?: readonly string[];
  /** Keys that are one Dropi account (a seller's renewed key sees the orders the expired one made). */
  accounts?: readonly (readonly string[])[];
  /** Departments with their cities; DEFAULT_DROPI_CATALOG otherwise. */
  catalog?: readonly DropiSimDepartment[];
  /** DEFAULT_DROPI_PRODUCTS otherwise. */
  products?: readonly DropiSimProduct[];
  /** 0..1: share of API requests answered 500. */
  failRate?: number;
  /** 0..1: share of successful creates whose answer comes only after lateMs (the client gave up: outcome unknown). */
  lostAnswerRate?: number;
  lateMs?: number;
  /** More than `max` requests of one key within `windowMs` lock that key for `lockMs` (429 to all its requests). */
  lockout?: { max: number; windowMs: number; lockMs: number };
  /** After `requests` requests with `token`, that key answers 401 Token is Expired for good. */
  expireAfter?: { token: string; requests: number };
  latencyMs?: number;
  /** Status changes are POSTed here unsigned, as Dropi does, with a few retries. */
  webhookUrl?: string;
  /** Dates the orders (created_at, updated_at); the system clock otherwise. */
  clock?: Clock;
  random?: () => number;
  log?: (line: string) => void;
}

export interface DropiSimCity {
  id: number;
  name: string;
  cod_dane: string | null;
  /** Covered only prepaid (`SIN RECAUDO`): missing from `CON RECAUDO` lists, and a COD order there is refused. */
  prepaid_only?: boolean;
}

export interface DropiSimDepartment {
  id: number;
  name: string;
  cities: DropiSimCity[];
}

export interface DropiSimProduct {
  id: number;
  name: string;
  sku: string | null;
  sale_price: number;
  stock: number;
  variations: { id: number; name: string }[];
}

export interface DropiSimOrder {
  id: number;
  shop_order_id: string | null;
  status: string;
  state: string;
  city: string;
  name: string;
  surname: string;
  phone: string;
  total_order: number;
  text_to_show_order_rotulo: string;
  products: unknown[];
  shipping_guide: string | null;
  deleted: boolean;
  /** The account that created it: the key's sha256 prefix, never the key. */
  account: string;
  /**
   * How many create requests of this account carried this shop_order_id, whatever they were
   * answered (200, late 200, 400, 401, 429, 500): "how many times did the caller try".
   */
  create_calls: number;
  created_at: string;
  updated_at: string;
}

export interface DropiKeyStats {
  requests: number;
  maxInFlight: number;
  /** The smallest gap between two request starts of this key; null before a second request. */
  minGapMs: number | null;
  lockouts: number;
  expired: boolean;
}

export interface DropiSimulator {
  url: string;
  port: number;
  /** Deep copies, deleted orders included. */
  orders(): DropiSimOrder[];
  stats(token: string): DropiKeyStats;
  /** Sets any raw Dropi status; resolves once the webhook (if any) was delivered or gave up. */
  advance(id: number, status: string, guide?: string): Promise<void>;
  /** The seller deleted it in Dropi: it no longer resolves, is no longer listed, cannot be cancelled. */
  deleteOrder(id: number): void;
  /** From now on this key answers 401 Token is Expired. */
  expireToken(token: string): void;
  close(): Promise<void>;
}

const DEFAULT_LATE_MS = 15_000;
const MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_RESULT_NUMBER = 10;
const DEFAULT_PRODUCT_PAGE = 10;
const SHIPPING_AMOUNT = 12_000;
const FIRST_ORDER_ID = 1_000_001;
const CARRIER = 'INTERRAPIDISIMO';
const WEBHOOK_ATTEMPTS = 4;
const WEBHOOK_RETRY_BASE_MS = 200;
const WEBHOOK_TIMEOUT_MS = 5_000;
const WEBHOOK_ANSWER_MAX_BYTES = 64 * 1024;
/** Below this length the last four characters would give away too much of a key. */
const LAST4_MIN_KEY_LENGTH = 16;
/** Before the parcel leaves, an order can still be cancelled; a label (guía) can be voided. */
const CANCELLABLE: ReadonlySet<string> = new Set([DROPI_NEW_STATUS, 'PENDIENTE', 'GUIA_GENERADA']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

type City = readonly [name: string, codDane: string | null, prepaidOnly?: boolean];
const department = (id: number, name: string, firstCityId: number, cities: readonly City[]): DropiSimDepartment => ({
  id,
  name,
  cities: cities.map(([city, codDane, prepaidOnly], i) => ({ id: firstCityId + i, name: city, cod_dane: codDane, ...(prepaidOnly ? { prepaid_only: true } : {}) })),
});

/**
 * Departments and cities spelled as Dropi spells them: uppercase departments, city names with and
 * without accents, homonyms with a suffix, a corregimiento listed as a city. cod_dane is the DANE
 * municipality code + `000` without its leading zero (Medellín 05001 → 5001000); Dropi lacks a few.
 */
export const DEFAULT_DROPI_CATALOG: readonly DropiSimDepartment[] = [
  department(1, 'CUNDINAMARCA', 101, [
    ['Bogota', '11001000'],
    ['Cajicá', '25126000'],
    ['Soacha', '25754000'],
    ['CHIA', '25175000'],
    ['Zipaquirá', '25899000'],
  ]),
  department(2, 'ANTIOQUIA', 201, [
    ['Medellin', '5001000'],
    ['Envigado', '5266000'],
    ['ARGELIA (A)', '5055000'],
    ['Bello', '5088000'],
    ['Itagui', '5360000'],
    ['Santa elena', null],
  ]),
  department(3, 'CAUCA', 301, [
    ['ARGELIA (C)', '19050000'],
    ['Popayan', '19001000'],
  ]),
  department(4, 'VALLE DEL CAUCA', 401, [
    ['ARGELIA (V)', '76054000'],
    ['Cali', '76001000'],
    ['Calima', '76126000', true],
    ['Palmira', '76520000'],
  ]),
  department(5, 'ATLANTICO', 501, [
    ['Barranquilla', '8001000'],
    ['Soledad', '8758000'],
    ['Malambo', null],
  ]),
  department(6, 'SANTANDER', 601, [
    ['Bucaramanga', '68001000'],
    ['Floridablanca', '68276000'],
    ['Zapatoca', '68895000', true],
  ]),
  department(7, 'NORTE DE SANTANDER', 701, [
    ['Cucuta', '54001000'],
    ['Villa del Rosario', '54874000'],
  ]),
];

/** What COD stores in Colombia sell, with Dropi-like numeric ids; some with variations. */
export const DEFAULT_DROPI_PRODUCTS: readonly DropiSimProduct[] = (
  [
    ['Faja colombiana reductora', 'FAJA-01', 89900, ['S', 'M', 'L', 'XL']],
    ['Cepillo alisador 3 en 1', 'CEP-3EN1', 69900, []],
    ['Reloj inteligente deportivo', 'SMART-W8', 119900, ['Negro', 'Rosa']],
    ['Audífonos inalámbricos', 'AUD-PRO', 59900, []],
    ['Masajeador de cuello', 'MASA-CU', 79900, []],
    ['Lámpara solar de exterior', 'LAMP-SOL', 49900, []],
    ['Organizador de maquillaje giratorio', null, 54900, []],
    ['Corrector de postura', 'POST-01', 39900, ['S/M', 'L/XL']],
    ['Mini proyector portátil', 'PROY-MINI', 189900, []],
    ['Set de ollas antiadherentes', 'OLLA-SET', 229900, []],
    ['Crema hidratante de colágeno', 'COLAG-50', 45900, []],
    ['Cámara de seguridad WiFi', 'CAM-WIFI', 99900, []],
  ] as const
).map(([name, sku, salePrice, variations], i) => ({
  id: 21001 + i,
  name,
  sku,
  sale_price: salePrice,
  stock: 40 + i * 9,
  variations: variations.map((variation, j) => ({ id: 31001 + i * 10 + j, name: variation })),
}));

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 16);
/** How a key is named in logs and answers: its hash, and its last four characters when long enough. */
export const dropiKeyLabel = (key: string) => (key.length >= LAST4_MIN_KEY_LENGTH ? `${hashOf(key)}…${key.slice(-4)}` : hashOf(key));

interface Stored extends Omit<DropiSimOrder, 'create_calls'> {
  dir: string;
  client_email: string | null;
  notes: string | null;
  rate_type: string;
  shipping_company: string | null;
}

interface Meter {
  requests: number;
  inFlight: number;
  maxInFlight: number;
  lastStart: number | null;
  minGapMs: number | null;
  lockouts: number;
  lockedUntil: number;
  /** Starts of the requests let through, inside the burst window. */
  window: number[];
}

type Answer = { status: number; body: unknown };

/** A Dropi envelope answer thrown from anywhere in a handler. */
class SimAnswer extends Error {
  constructor(readonly answer: Answer) {
    super(String((answer.body as { message?: unknown }).message));
  }
}
const refuse = (status: number, message: string) => new SimAnswer({ status, body: { isSuccess: false, message, status } });
const success = (message: string, objects: unknown, count?: number): Answer => ({ status: 200, body: { isSuccess: true, message, status: 200, objects, ...(count === undefined ? {} : { count }) } });

// The other bodies Dropi takes; their fields reuse the contract's (one shape each).
const ByCitySchema = v.object({ department_id: DropiDepartmentSchema.entries.id, rate_type: DropiCreateOrderSchema.entries.rate_type });
const ProductIndexSchema = v.object({
  pageSize: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), DEFAULT_PRODUCT_PAGE),
  startData: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
  keywords: v.optional(v.nullable(v.string())),
});
const CancelSchema = v.object({ status: v.literal(DROPI_CANCELLED) });

/** Dropi's 400s name the field in the seller's language. */
function fieldMessage(issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]): string {
  const issue = issues[0];
  const path = v.getDotPath(issue);
  if (!path) return 'El cuerpo de la solicitud no es válido';
  return issue.input === undefined ? `El campo ${path} es obligatorio` : `El campo ${path} no es válido`;
}

function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, input);
  if (!parsed.success) throw refuse(400, fieldMessage(parsed.issues));
  return parsed.output;
}

function checkLockout(lockout: DropiSimOptions['lockout']): DropiSimOptions['lockout'] {
  if (lockout && !(Number.isInteger(lockout.max) && lockout.max >= 0 && lockout.windowMs > 0 && lockout.lockMs > 0))
    throw new RangeError('lockout needs an integer max >= 0 and positive windowMs and lockMs');
  return lockout;
}

const sameId = (a: number | string, b: number | string | null | undefined) => b !== null && b !== undefined && String(a) === String(b);

export async function startDropiSimulator(options: DropiSimOptions = {}): Promise<DropiSimulator> {
  const failRate = checkRate('failRate', options.failRate);
  const lostAnswerRate = checkRate('lostAnswerRate', options.lostAnswerRate);
  const lockout = checkLockout(options.lockout);
  const latencyMs = Math.max(0, options.latencyMs ?? 0);
  const lateMs = Math.max(0, options.lateMs ?? DEFAULT_LATE_MS);
  const random = options.random ?? Math.random;
  const log = options.log ?? (() => {});
  const clock = options.clock ?? systemClock;
  const catalog = structuredClone(options.catalog ?? DEFAULT_DROPI_CATALOG) as DropiSimDepartment[];
  const products = structuredClone(options.products ?? DEFAULT_DROPI_PRODUCTS) as DropiSimProduct[];
  const accepted = options.tokens ? new Set(options.tokens.map(hashOf)) : undefined;
  /** A key's account: the first key of its group in `accounts`, else the key itself (as hashes). */
  const accountOfKey = new Map((options.accounts ?? []).flatMap((group) => group.map((key) => [hashOf(key), hashOf(group[0]!)] as const)));
  const expireAfter = options.expireAfter && { hash: hashOf(options.expireAfter.token), requests: options.expireAfter.requests };
  const outbound = new OutboundClient();

  const orders = new Map<number, Stored>();
  const createCalls = new Map<string, number>();
  const meters = new Map<string, Meter>();
  const expired = new Set<string>();
  let sequence = 0;
  let guides = 0;
  // The server (src/simulators/sim-server.ts), set once listening: before any request or webhook runs.
  let sim!: SimServer;
  const later = (ms: number) => sim.later(ms);

  const callsKey = (account: string, ref: string) => `${account}\u0000${ref}`;
  const meterOf = (hash: string): Meter => {
    let m = meters.get(hash);
    if (!m) meters.set(hash, (m = { requests: 0, inFlight: 0, maxInFlight: 0, lastStart: null, minGapMs: null, lockouts: 0, lockedUntil: 0, window: [] }));
    return m;
  };

  const view = (o: Stored): DropiSimOrder => ({
    id: o.id,
    shop_order_id: o.shop_order_id,
    status: o.status,
    state: o.state,
    city: o.city,
    name: o.name,
    surname: o.surname,
    phone: o.phone,
    total_order: o.total_order,
    text_to_show_order_rotulo: o.text_to_show_order_rotulo,
    products: structuredClone(o.products),
    shipping_guide: o.shipping_guide,
    deleted: o.deleted,
    account: o.account,
    create_calls: o.shop_order_id === null ? 0 : (createCalls.get(callsKey(o.account, o.shop_order_id)) ?? 0),
    created_at: o.created_at,
    updated_at: o.updated_at,
  });

  /** An order as Dropi's API shows it (never the account or the simulator's counters). */
  const apiView = (o: Stored) => ({
    id: o.id,
    shop_order_id: o.shop_order_id,
    status: o.status,
    type: 'FINAL_ORDER',
    name: o.name,
    surname: o.surname,
    phone: o.phone,
    client_email: o.client_email,
    dir: o.dir,
    state: o.state,
    city: o.city,
    notes: o.notes,
    rate_type: o.rate_type,
    total_order: o.total_order,
    shipping_amount: SHIPPING_AMOUNT,
    shipping_guide: o.shipping_guide,
    shipping_company: o.shipping_company,
    text_to_show_order_rotulo: o.text_to_show_order_rotulo,
    products: structuredClone(o.products),
    created_at: o.created_at,
    updated_at: o.updated_at,
  });

  async function deliver(o: Stored): Promise<void> {
    const { webhookUrl } = options;
    if (!webhookUrl) return;
    // Unsigned, as Dropi sends it: a receiver re-reads the order through the API before trusting it.
    const body = JSON.stringify({ id: o.id, status: o.status, shop_order_id: o.shop_order_id, shipping_guide: o.shipping_guide, shipping_company: o.shipping_company, sticker: null, notes: null });
    for (let attempt = 1; attempt <= WEBHOOK_ATTEMPTS && !sim.closing.aborted; attempt++) {
      try {
        const answer = await outbound.send({
          url: webhookUrl,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'dropi-simulator' },
          body,
          // The developer gave this URL (usually a local codrail): any address.
          addresses: 'any',
          deadlineMs: WEBHOOK_TIMEOUT_MS,
          maxBytes: WEBHOOK_ANSWER_MAX_BYTES,
          what: 'POST webhook',
        });
        log(`webhook ${o.id} ${o.status} → ${answer.status} (attempt ${attempt})`);
        return;
      } catch (error) {
        log(`webhook ${o.id} ${o.status} failed (attempt ${attempt}): ${(error as Error).message}`);
      }
      if (attempt < WEBHOOK_ATTEMPTS) await later(WEBHOOK_RETRY_BASE_MS * 2 ** (attempt - 1));
    }
  }

  function setStatus(id: number, status: unknown, guide?: unknown): Stored {
    const o = orders.get(id);
    if (!o || o.deleted) throw refuse(404, `Orden ${id} no encontrada`);
    if (typeof status !== 'string' || !status.trim() || status.length > 100) throw refuse(400, 'El campo status no es válido');
    if (guide !== undefined && guide !== null && (typeof guide !== 'string' || !guide || guide.length > 100)) throw refuse(400, 'El campo shipping_guide no es válido');
    o.status = status;
    if (typeof guide === 'string') o.shipping_guide = guide;
    // A label comes with a guide number from the carrier.
    else if (status === 'GUIA_GENERADA' && !o.shipping_guide) o.shipping_guide = `2400${String(++guides).padStart(8, '0')}`;
    if (o.shipping_guide) o.shipping_company ??= CARRIER;
    o.updated_at = clock.now().toISOString();
    log(`status ${o.id} → ${status}`);
    return o;
  }

  function deleteOrder(id: number): Stored {
    const o = orders.get(id);
    if (!o || o.deleted) throw refuse(404, `Orden ${id} no encontrada`);
    o.deleted = true;
    o.updated_at = clock.now().toISOString();
    log(`delete ${o.id}`);
    return o;
  }

  function parseJson(raw: Buffer): unknown {
    try {
      return JSON.parse(raw.toString('utf8'));
    } catch {
      throw refuse(400, 'El cuerpo de la solicitud no es JSON válido');
    }
  }

  /** The reference of a create body, when it can be read: counted before anything else refuses it. */
  function refOf(raw: Buffer): string | undefined {
    try {
      const ref = (JSON.parse(raw.toString('utf8')) as { shop_order_id?: unknown } | null)?.shop_order_id;
      return typeof ref === 'string' ? ref : undefined;
    } catch {
      return undefined;
    }
  }

  function checkPlace(body: DropiCreateOrder): void {
    const dept = catalog.find((d) => d.name === body.state);
    if (!dept) throw refuse(400, `El departamento "${body.state}" no existe`);
    // Exact strings, case and accents included: `bogota` and `Bogotá` are not `Bogota`.
    const city = dept.cities.find((c) => c.name === body.city);
    if (!city) throw refuse(400, `La ciudad "${body.city}" no existe en ${body.state}`);
    if (city.prepaid_only && body.rate_type === DROPI_COD) throw refuse(400, `La ciudad "${body.city}" no tiene cobertura ${DROPI_COD}`);
  }

  function orderProducts(body: DropiCreateOrder): unknown[] {
    return body.products.map((line) => {
      const product = products.find((p) => sameId(p.id, line.id));
      if (!product) throw refuse(400, `El producto ${line.id} no existe`);
      const variation = line.variation_id === undefined || line.variation_id === null ? undefined : product.variations.find((x) => sameId(x.id, line.variation_id));
      if (line.variation_id !== undefined && line.variation_id !== null && !variation) throw refuse(400, `La variación ${line.variation_id} no pertenece al producto ${product.id}`);
      return { id: product.id, name: product.name, price: line.price, quantity: line.quantity, variation_id: variation?.id ?? null };
    });
  }

  type Handler = (ctx: { account: string; url: URL; raw: Buffer; id: string }) => Answer;

  const createOrder: Handler = ({ account, raw }) => {
    const body = parse(DropiCreateOrderSchema, parseJson(raw));
    checkPlace(body);
    const lines = orderProducts(body);
    const now = clock.now().toISOString();
    const o: Stored = {
      id: FIRST_ORDER_ID + sequence++,
      shop_order_id: body.shop_order_id,
      status: DROPI_NEW_STATUS,
      state: body.state,
      city: body.city,
      name: body.name,
      surname: body.surname,
      phone: body.phone,
      client_email: body.client_email ?? null,
      dir: body.dir,
      notes: body.notes ?? null,
      rate_type: body.rate_type,
      total_order: body.total_order,
      text_to_show_order_rotulo: body.text_to_show_order_rotulo,
      products: lines,
      shipping_guide: null,
      shipping_company: null,
      deleted: false,
      account,
      created_at: now,
      updated_at: now,
    };
    orders.set(o.id, o);
    log(`create ${o.id} shop_order_id=${o.shop_order_id}`);
    return success('Orden creada', apiView(o));
  };

  function count(raw: string | null, name: string, fallback: number): number {
    if (raw === null || raw === '') return fallback;
    if (!/^\d{1,9}$/.test(raw)) throw refuse(400, `El parámetro ${name} no es válido`);
    return Number(raw);
  }
  function day(raw: string | null, name: string): string | undefined {
    if (raw === null || raw === '') return undefined;
    if (!DATE.test(raw)) throw refuse(400, `El parámetro ${name} debe ser una fecha AAAA-MM-DD`);
    return raw;
  }

  const listOrders: Handler = ({ account, url }) => {
    const q = url.searchParams;
    const size = Math.min(DROPI_PAGE_SIZE, Math.max(1, count(q.get('result_number'), 'result_number', DEFAULT_RESULT_NUMBER)));
    const start = count(q.get('start'), 'start', 0);
    const from = day(q.get('from'), 'from');
    const until = day(q.get('untill'), 'untill');
    const by = q.get('filter_date_by');
    if (by !== null && by !== DROPI_DATE_FILTER) throw refuse(400, `El filtro de fecha "${by}" no es válido`);
    const matching = [...orders.values()]
      .filter((o) => o.account === account && !o.deleted)
      .filter((o) => {
        const created = o.created_at.slice(0, 10);
        return (!from || created >= from) && (!until || created <= until);
      })
      .sort((a, b) => a.id - b.id);
    return success('Ordenes', matching.slice(start, start + size).map(apiView), matching.length);
  };

  const own = (account: string, id: string): Stored => {
    const o = /^\d{1,15}$/.test(id) ? orders.get(Number(id)) : undefined;
    if (!o || o.deleted || o.account !== account) throw refuse(404, 'Orden no encontrada');
    return o;
  };

  const getOrder: Handler = ({ account, id }) => success('Orden', apiView(own(account, id)));

  const updateOrder: Handler = ({ account, id, raw }) => {
    const o = own(account, id);
    const body = v.safeParse(CancelSchema, parseJson(raw));
    if (!body.success) throw refuse(400, `Solo se puede cambiar el estado a ${DROPI_CANCELLED}`);
    if (o.status === DROPI_CANCELLED) return success('Orden actualizada', apiView(o));
    if (!CANCELLABLE.has(o.status)) throw refuse(400, `La orden ${o.id} está en estado ${o.status} y ya no se puede cancelar`);
    setStatus(o.id, DROPI_CANCELLED);
    void deliver(o);
    return success('Orden actualizada', apiView(o));
  };

  const listDepartments: Handler = () =>
    success(
      'Departamentos',
      catalog.map((d) => ({ id: d.id, name: d.name })),
    );

  const listCities: Handler = ({ raw }) => {
    const body = parse(ByCitySchema, parseJson(raw));
    const dept = catalog.find((d) => sameId(d.id, body.department_id));
    if (!dept) throw refuse(400, `El departamento ${body.department_id} no existe`);
    const cities = dept.cities.filter((c) => !(c.prepaid_only && body.rate_type === DROPI_COD)).map((c) => ({ id: c.id, name: c.name, cod_dane: c.cod_dane }));
    return success('Ciudades', cities);
  };

  const listProducts: Handler = ({ raw }) => {
    const body = parse(ProductIndexSchema, parseJson(raw));
    const words = (body.keywords ?? '').trim().toLowerCase();
    const matching = products.filter((p) => !words || p.name.toLowerCase().includes(words) || (p.sku ?? '').toLowerCase().includes(words));
    const size = Math.min(DROPI_PAGE_SIZE, body.pageSize);
    return success('Productos', structuredClone(matching.slice(body.startData, body.startData + size)), matching.length);
  };

  const getProduct: Handler = ({ id }) => {
    const product = products.find((p) => String(p.id) === id);
    if (!product) throw refuse(404, 'Producto no encontrado');
    return success('Producto', structuredClone(product));
  };

  const idUnder = (prefix: string) => new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^/]+)$`);
  const exactly = (path: string) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const ROUTES: readonly [method: string, path: RegExp, handler: Handler][] = [
    ['POST', exactly(DROPI_PATHS.orders), createOrder],
    ['GET', exactly(DROPI_PATHS.orders), listOrders],
    ['GET', idUnder(DROPI_PATHS.order('')), getOrder],
    ['PUT', idUnder(DROPI_PATHS.order('')), updateOrder],
    ['GET', exactly(DROPI_PATHS.departments), listDepartments],
    ['POST', exactly(DROPI_PATHS.cities), listCities],
    ['POST', exactly(DROPI_PATHS.products), listProducts],
    ['GET', idUnder(DROPI_PATHS.product('')), getProduct],
  ];
  const isCreate = (method: string, path: string) => method === 'POST' && path === DROPI_PATHS.orders;

  /** Step 2 of the header: whether this request is let through the key's lockout. */
  function letThrough(m: Meter, now: number): boolean {
    if (!lockout) return true;
    if (now < m.lockedUntil) return false;
    while (m.window.length && m.window[0]! <= now - lockout.windowMs) m.window.shift();
    if (m.window.length >= lockout.max) {
      m.lockedUntil = now + lockout.lockMs;
      m.lockouts++;
      m.window = [];
      return false;
    }
    m.window.push(now);
    return true;
  }

  /** Steps 2–6 of the header. `late`: hold the answer lateMs (a lost answer). */
  function api(method: string, url: URL, hash: string | undefined, raw: Buffer): { answer: Answer; late: boolean } {
    if (hash !== undefined && !letThrough(meterOf(hash), performance.now())) throw refuse(429, DROPI_TOO_MANY);
    if (hash === undefined || (accepted && !accepted.has(hash))) throw refuse(401, 'Access denied');
    if (expireAfter && hash === expireAfter.hash && meterOf(hash).requests > expireAfter.requests) expired.add(hash);
    if (expired.has(hash)) throw refuse(401, DROPI_TOKEN_EXPIRED);
    if (failRate > 0 && random() < failRate) throw refuse(500, 'Internal Server Error');
    for (const [m, pattern, handler] of ROUTES) {
      const match = method === m ? pattern.exec(url.pathname) : null;
      if (!match) continue;
      const answer = handler({ account: accountOfKey.get(hash) ?? hash, url, raw, id: decodeURIComponent(match[1] ?? '') });
      // The order exists, but its answer comes after the client's timeout: the outcome is unknown.
      const late = isCreate(method, url.pathname) && lostAnswerRate > 0 && random() < lostAnswerRate;
      return { answer, late };
    }
    throw refuse(404, 'Not Found');
  }

  /** The control plane for tests and the developer: no key, never delayed, locked or failed. */
  function control(method: string, path: string, raw: Buffer): Answer {
    const answer = (body: unknown): Answer => ({ status: 200, body });
    if (path === '/_sim/orders' && method === 'GET') return answer([...orders.values()].map(view));
    if (path === '/_sim/tokens/expire' && method === 'POST') {
      const token = (parseJson(raw) as { token?: unknown } | null)?.token;
      if (typeof token !== 'string' || !token) throw refuse(400, 'El campo token es obligatorio');
      expired.add(hashOf(token));
      log(`key ${dropiKeyLabel(token)} expired`);
      return answer({ expired: dropiKeyLabel(token) });
    }
    const status = /^\/_sim\/orders\/(\d{1,15})\/status$/.exec(path);
    if (status && method === 'POST') {
      const body = parseJson(raw) as { status?: unknown; shipping_guide?: unknown } | null;
      const o = setStatus(Number(status[1]), body?.status, body?.shipping_guide);
      void deliver(o);
      return answer(view(o));
    }
    const one = /^\/_sim\/orders\/(\d{1,15})$/.exec(path);
    if (one && method === 'DELETE') return answer(view(deleteOrder(Number(one[1]))));
    throw refuse(404, 'Not Found');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://simulator');
    const isControl = url.pathname.startsWith('/_sim/');
    const header = req.headers[DROPI_KEY_HEADER];
    const key = !isControl && typeof header === 'string' && header !== '' ? header : undefined;
    const hash = key === undefined ? undefined : hashOf(key);
    let gone = false;
    const meter = hash === undefined ? undefined : meterOf(hash);
    if (meter) {
      const now = performance.now();
      meter.requests++;
      meter.inFlight++;
      meter.maxInFlight = Math.max(meter.maxInFlight, 1);
      if (meter.lastStart !== null) meter.minGapMs = Math.min(meter.minGapMs ?? Infinity, now - meter.lastStart);
      meter.lastStart = now;
      // How many are open together is read at the end of this turn of the event loop: a client that
      // gave up on its last request (a timeout) closed that socket before sending this one, but when
      // both reach a busy loop in the same turn the new request may be read first. By the end of the
      // turn the old socket's close has run; requests truly open together are still counted together.
      setImmediate(() => {
        if (!gone) meter.maxInFlight = Math.max(meter.maxInFlight, meter.inFlight);
      });
    }
    // 'close' comes once the answer is written, or when the client left first.
    res.once('close', () => {
      gone = true;
      if (meter) meter.inFlight--;
    });
    let answer: Answer;
    let late = false;
    try {
      const raw = await readCappedBody(req, MAX_BODY_BYTES, () => refuse(413, 'Payload Too Large'));
      if (isControl) answer = control(method, url.pathname, raw);
      else {
        const ref = isCreate(method, url.pathname) ? refOf(raw) : undefined;
        if (ref !== undefined) createCalls.set(callsKey(hash ?? '', ref), (createCalls.get(callsKey(hash ?? '', ref)) ?? 0) + 1);
        ({ answer, late } = api(method, url, hash, raw));
      }
    } catch (error) {
      if (!(error instanceof SimAnswer)) throw error;
      answer = error.answer;
    }
    if (!isControl && latencyMs > 0) await later(latencyMs);
    if (late) await later(lateMs);
    const line = `${method} ${url.pathname}${url.search} → ${answer.status}${key === undefined ? '' : ` (key ${dropiKeyLabel(key)})`}`;
    // A client that gave up has closed its socket: the late answer goes nowhere.
    if (gone || res.destroyed || sim.closing.aborted) return log(`${line}, not delivered: the client left`);
    const text = JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
    log(line);
  }

  sim = await startSimServer({
    port: options.port,
    host: options.host,
    name: 'dropi simulator',
    log,
    crashBody: JSON.stringify({ isSuccess: false, message: 'Internal Server Error', status: 500 }),
    handle,
  });
  const { url, port } = sim;

  const plainError = (run: () => Stored): Stored => {
    try {
      return run();
    } catch (error) {
      throw error instanceof SimAnswer ? new Error(error.message) : error;
    }
  };

  return {
    url,
    port,
    orders: () => [...orders.values()].map(view),
    stats(token) {
      const m = meters.get(hashOf(token));
      return { requests: m?.requests ?? 0, maxInFlight: m?.maxInFlight ?? 0, minGapMs: m?.minGapMs ?? null, lockouts: m?.lockouts ?? 0, expired: expired.has(hashOf(token)) };
    },
    async advance(id, status, guide) {
      await deliver(plainError(() => setStatus(id, status, guide)));
    },
    deleteOrder(id) {
      plainError(() => deleteOrder(id));
    },
    expireToken(token) {
      expired.add(hashOf(token));
      log(`key ${dropiKeyLabel(token)} expired`);
    },
    close: () => sim.close(),
  };
}
