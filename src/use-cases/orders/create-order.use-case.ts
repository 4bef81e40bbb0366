// POST /api/orders/create: every check of SPEC 4.1, in its order. One rule, one place: the REST
// route (and later the MCP tool) call this.
import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Deps } from '../../app.ts';
import { AppError, fieldError, forbidden } from '../../errors.ts';
import { newId, UUID_PATTERN } from '../../ids.ts';
import { DUPLICATE_WINDOW_MS, KEY_TOUCH_INTERVAL_MS, PHONE_HISTORY_LIMIT } from '../../limits.ts';
import { idempotencyKeyHeader } from '../idempotency.use-case.ts';
import type { StoresTable } from '../../db/tables/index.ts';
import { singleWriter, writeTransaction } from '../../db/transaction.ts';
import { blockedValues, findStore, takeOrderNumber } from '../../db/queries/stores.queries.ts';
import { findPack, findProduct } from '../../db/queries/products.queries.ts';
import { findLanding } from '../../db/queries/landings.queries.ts';
import { touchKey } from '../../db/queries/keys.queries.ts';
import {
  findIdempotency,
  findOrder,
  findRecentDuplicate,
  insertIdempotency,
  insertJob,
  insertOrder,
  phoneOrders,
  type PhoneOrder,
} from '../../db/queries/orders.queries.ts';
import { CANONICALIZED_COUNTRIES, POSTAL_CODE_REQUIRED } from '../../domain/countries.ts';
import { normalizePhone, phoneDigits } from '../../domain/phone.ts';
import { storeMoney } from '../stores/store-money.ts';
import { platformDestination } from '../../platforms/connections.ts';
import { checkOrderPrice } from '../../domain/pricing.ts';
import { botReason } from '../../domain/anti-bot.ts';
import { stableJson } from '../../domain/stable-json.ts';
import { pushReleased } from '../../domain/push-policy.ts';
import { orderRisk, refreshRisk } from './order-risk.ts';
import { requestHost } from '../../domain/domains.ts';
import { publishableAccess } from '../keys/checkout-access.ts';
import type { CityDecision } from '../../domain/cities/matcher.ts';
import { storeCityDecision } from '../geo/store-cities.ts';
import { parseWith } from '../validate.ts';
import { CreateOrderInputSchema, type CreateOrderInput } from './create-order.schema.ts';
import { authenticateKey, credentialPresent, keyScopes, type ApiKey, type PresentedCredential } from '../keys/authenticate-key.ts';
import { countOrderLimits, hitOrderLimits, rateLimited, type Counted, type LimitSubject, type RateState } from './order-rate-limits.ts';
import { createdBody, type CreateOrderSuccess } from './order-view.ts';
import { lockForTransaction } from '../../db/queries/locks.queries.ts';

/** A caller already authenticated for its whole account (an MCP secret key or OAuth token). */
export interface AccountCaller {
  accountId: string;
  /** Written into the order events: `key:<id>` or `oauth:<client_id>`. */
  actor: string;
  /** Rate-limit bucket: the key id or the token family id. */
  subjectId: string;
  /** The secret key it is, when it is one: recorded on the order like a key's orders (issue 14). */
  apiKeyId?: string | null;
}

export interface OrderRequest extends PresentedCredential {
  body: Record<string, unknown>;
  /** Set by account surfaces (MCP create_order): replaces the key checks of steps 3–4. */
  principal?: AccountCaller | undefined;
  /** An account caller's first internal note (create_order `notes`): an `order.note` event written with the order. */
  note?: string | undefined;
  origin?: string | undefined;
  referer?: string | undefined;
  ip: string | null;
  idempotencyKey?: string | undefined;
}

/** What the shell needs even when the order is refused: CORS reflection and rate-limit state. */
export interface OrderTrace {
  corsOrigin?: string;
  /** The browser origin a refusal (401, 403) is readable from: a publishable-key request's, never a secret key's. */
  refusalOrigin?: string;
  rate?: RateState;
}

export interface OrderOutcome {
  body: CreateOrderSuccess;
  /** True when an earlier answer was returned (idempotent retry or duplicate suppression). */
  replayed: boolean;
}

type Store = Selectable<StoresTable>;

interface Resolved {
  mode: 1 | 2;
  store: Store;
  productId: string;
  landingId: string | null;
  key: ApiKey | null;
  sandbox: boolean;
  actor: string;
  subjectId?: string;
  /** The secret key behind an account caller, for the order's api_key_id. */
  principalKeyId?: string | null;
}

const isSet = (v: unknown) => v !== undefined && v !== null && v !== '';

function uuidField(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || !UUID_PATTERN.test(value)) throw fieldError(field, `${field} must be a UUID`);
  return value.toLowerCase();
}

/** Step 2: which mode, from the ids present. */
function chooseMode(body: Record<string, unknown>, credentialSent: boolean): 1 | 2 {
  const landing = isSet(body.landing_page_id);
  const headless = isSet(body.store_id) && isSet(body.product_id);
  if (landing && !(credentialSent && headless)) return 1;
  if (headless) return 2;
  const details = ['store_id', 'product_id']
    .filter((f) => !isSet(body[f]))
    .map((field) => ({ field, message: `${field} is required when landing_page_id is not sent` }));
  throw new AppError('invalid_input', 'Send landing_page_id, or both store_id and product_id', details);
}

async function activeStore(deps: Deps, id: string): Promise<Store | undefined> {
  const store = await findStore(deps.db, id);
  return store && store.archived_at === null ? store : undefined;
}

/** Steps 2–4: mode, credential, key and origin checks. */
async function resolveCaller(deps: Deps, req: OrderRequest, trace: OrderTrace): Promise<Resolved> {
  const principal = req.principal;
  const mode = chooseMode(req.body, principal !== undefined || credentialPresent(req));
  if (principal) {
    // Like a secret key: any active store of the account, no origin check, a live order. Another
    // account's store is not_found so existence does not leak (MCP-TOOLS.md §5.14).
    const storeId = uuidField(req.body, 'store_id');
    const productId = uuidField(req.body, 'product_id');
    const store = await activeStore(deps, storeId);
    if (!store || store.account_id !== principal.accountId) throw new AppError('not_found', 'Store not found', [{ field: 'store_id', message: 'Unknown store' }]);
    // The page the sale came from (create_order `landing_page_id`): a landing of this store selling this product.
    let landingId: string | null = null;
    if (isSet(req.body.landing_page_id)) {
      landingId = uuidField(req.body, 'landing_page_id');
      const landing = await findLanding(deps.db, landingId);
      if (!landing || landing.store_id !== store.id || landing.product_id !== productId) throw fieldError('landing_page_id', 'Unknown landing page of this store selling this product');
    }
    return { mode: 2, store, productId, landingId, key: null, sandbox: false, actor: principal.actor, subjectId: principal.subjectId, principalKeyId: principal.apiKeyId ?? null };
  }
  if (mode === 1) {
    const landingId = uuidField(req.body, 'landing_page_id');
    const landing = await findLanding(deps.db, landingId);
    const store = landing?.published ? await activeStore(deps, landing.store_id) : undefined;
    if (!landing || !store) throw fieldError('landing_page_id', 'Unknown or unpublished landing page');
    // Our own landing pages post from our origin: let the browser read the answer.
    const host = requestHost(req.origin, undefined);
    if (req.origin && host && host === new URL(deps.config.baseUrl).hostname) trace.corsOrigin = req.origin;
    return { mode, store, productId: landing.product_id, landingId, key: null, sandbox: false, actor: `landing:${landingId}` };
  }
  const storeId = uuidField(req.body, 'store_id');
  const productId = uuidField(req.body, 'product_id');
  // A browser's checkout reads its refusal too (issue 23 §5): an unknown key or a refused origin must
  // show "not available on this site", never a network error. Only the refusal is readable; a
  // secret key is server to server and never reflects.
  if (req.origin) trace.refusalOrigin = req.origin;
  const key = await authenticateKey(deps, req);
  const base = { mode, productId, landingId: null, key, sandbox: key.env === 'test', actor: `key:${key.id}` } as const;
  if (key.type === 'secret') {
    delete trace.refusalOrigin;
    // Server to server: no origin check, any store of the key's account, if its scopes allow orders
    // (issue 19 §2: a restricted key does here only what it may do on /api/v1 and /api/mcp).
    if (!keyScopes(key).has('orders:create')) throw forbidden('This key lacks the scope orders:create');
    const store = await activeStore(deps, storeId);
    if (!store || store.account_id !== key.account_id) throw forbidden('This key cannot create orders for this store');
    return { ...base, store };
  }
  const store = await publishableAccess(deps, key, { storeId, productId, origin: req.origin, referer: req.referer });
  if (req.origin) trace.corsOrigin = req.origin;
  return { ...base, store };
}

/** Step 7: country rules. */
function countryRules(store: Store, input: CreateOrderInput): string {
  if (POSTAL_CODE_REQUIRED.has(store.country) && !input.codigo_postal)
    throw fieldError('codigo_postal', `codigo_postal is required for ${store.country}`);
  const phone = normalizePhone(input.telefono, store.country);
  if (!phone) throw fieldError('telefono', `telefono is not a valid phone number for ${store.country}`);
  return phone.e164;
}

/** Step 8: product, pack and the anti-fraud floor. */
async function priceCheck(deps: Deps, r: Resolved, input: CreateOrderInput) {
  const product = await findProduct(deps.db, r.productId);
  if (!product || product.store_id !== r.store.id) throw fieldError('product_id', 'Unknown product for this store');
  if (product.status !== 'active') throw fieldError('product_id', 'This product is not available');
  const pack = await findPack(deps.db, product.id, input.pack);
  if (!pack) throw fieldError('pack', `Unknown pack "${input.pack}" for this product`);
  // Amounts follow the store currency's decimals (ISO 4217, or whole when configured).
  const money = storeMoney(deps, r.store);
  const unitPriceMinor = money.minor('unit_price', input.unit_price);
  const totalPriceMinor = money.minor('total_price', input.total_price);
  const verdict = checkOrderPrice({
    pack,
    maxDiscountPct: r.store.max_discount_pct,
    unitFloorMinor: product.min_unit_price_minor,
    quantity: input.quantity,
    unitPriceMinor,
    totalPriceMinor,
  });
  if (!verdict.ok) {
    deps.log.info({ productId: product.id, pack: pack.code, reason: verdict.reason }, 'order price refused');
    throw new AppError('price_below_floor', 'Price below the allowed minimum', [
      { field: 'total_price', message: 'total_price is below the allowed minimum for this pack and quantity' },
    ]);
  }
  return { pack, unitPriceMinor, totalPriceMinor };
}

/** Step 11, before the transaction: the city decision is pure work on cached catalogs (the store's platform's spelling when it has one). */
const canonicalCity = (deps: Deps, store: { id: string; country: string }, input: CreateOrderInput): Promise<CityDecision | undefined> =>
  storeCityDecision(deps, store, input.departamento, input.ciudad);



/**
 * Step 10, duplicate suppression: the first order of this store, product, pack and quantity from the
 * same phone inside the window (`history` is newest first).
 */
function firstDuplicate(history: readonly PhoneOrder[], k: { storeId: string; productId: string; pack: string; quantity: number; since: string }): PhoneOrder | undefined {
  let first: PhoneOrder | undefined;
  for (const o of history) {
    if (o.created_at < k.since) break;
    if (o.store_id === k.storeId && o.product_id === k.productId && o.pack === k.pack && o.quantity === k.quantity) first = o;
  }
  return first;
}

/** Every order request goes through here: counted as created (by how it came) or refused (by why). */
export async function createOrder(deps: Deps, req: OrderRequest, trace: OrderTrace): Promise<OrderOutcome> {
  try {
    const outcome = await placeOrder(deps, req, trace);
    if (!outcome.replayed) deps.metrics?.orderCreated(req.principal ? 'account' : req.apiKey || req.authorization ? 'key' : 'landing');
    return outcome;
  } catch (error) {
    deps.metrics?.orderRefused(error instanceof AppError ? error.code : 'internal');
    throw error;
  }
}

/** The anti-bot checks refused the order (step 9): recorded once the request has been counted. */
class BotRejection extends Error {
  constructor(readonly reason: string, readonly e164: string) {
    super('Order rejected');
  }
}

/** Steps 6–9 and 11 on the request as sent: what the order's transaction writes from. */
async function checkOrder(deps: Deps, r: Resolved, req: OrderRequest) {
  const input = parseWith(CreateOrderInputSchema, req.body);
  const e164 = countryRules(r.store, input);
  const price = await priceCheck(deps, r, input);
  const blocked = await blockedValues(deps.db, r.store.id, e164, req.ip);
  const reason = botReason({
    website: req.body.website,
    nombre: input.nombre,
    direccion: input.direccion,
    phoneBlocked: blocked.has('phone'),
    ipBlocked: blocked.has('ip'),
  });
  if (reason) throw new BotRejection(reason, e164);
  const city = await canonicalCity(deps, r.store, input);
  return { input, e164, price, city };
}

async function placeOrder(deps: Deps, req: OrderRequest, trace: OrderTrace): Promise<OrderOutcome> {
  const r = await resolveCaller(deps, req, trace);

  const rawPhone = typeof req.body.telefono === 'string' ? req.body.telefono : undefined;
  const phoneBucket = rawPhone ? (normalizePhone(rawPhone, r.store.country)?.e164 ?? phoneDigits(rawPhone)) : undefined;
  const who: LimitSubject = { ip: req.ip, keyId: r.key?.id, subjectId: r.subjectId, storeId: r.store.id, phone: phoneBucket || undefined };
  const report = (s: RateState) => {
    trace.rate = s;
  };

  // Step 5 counts every request that got this far, refused or not, and a client over a limit hears
  // 429 before anything else. A valid order is counted in its own transaction (one commit per
  // order); a refused one in a write of its own, before its refusal is answered (or recorded).
  let checked: Awaited<ReturnType<typeof checkOrder>>;
  try {
    checked = await checkOrder(deps, r, req);
  } catch (error) {
    await hitOrderLimits(deps, who, report);
    if (!(error instanceof BotRejection)) throw error;
    deps.log.warn({ storeId: r.store.id, reason: error.reason, ip: req.ip }, 'order rejected by anti-bot checks');
    await deps.orderEvents.recordAlone(deps.db, { order_id: null, store_id: r.store.id, type: 'order.rejected', actor: r.actor, data: { reason: error.reason, ip: req.ip, telefono: error.e164 }, created_at: deps.clock.now().toISOString() });
    throw new AppError('order_rejected', 'Order rejected');
  }
  const { input, e164, price, city } = checked;
  const now = deps.clock.now();
  const nowIso = now.toISOString();

  const idemKey = idempotencyKeyHeader(req.idempotencyKey);
  // The note is part of what a retry must repeat (an order without one hashes as before).
  const requestHash = idemKey ? createHash('sha256').update(stableJson(req.note ? { body: req.body, note: req.note } : req.body)).digest('hex') : '';
  const needsReview = city !== undefined && !city.confident;

  // PostgreSQL (SPEC 16): READ COMMITTED, so that concurrent orders wait on the rows they share (the
  // store's order number, the rate-limit counters, each an atomic update) instead of failing to
  // serialize and starting over. What an order reads before it writes is one phone's orders (the
  // duplicate window, the return risk) and one Idempotency-Key's record: both are locked for the
  // transaction, so a second order of the phone or the key reads what the first committed.
  //
  // On PostgreSQL the rate-limit counters are counted first, in a write of their own, as a refused
  // request's are: in the order's transaction every order of one key or IP would wait on those rows
  // until the order committed (bench/order-create-postgres.bench.ts, orders over eight stores: 294
  // orders/s apart, 241 inside). On SQLite, where one writer runs anyway, they stay in the order's
  // transaction: one commit per order.
  const countApart = !singleWriter(deps.db);
  if (countApart) await hitOrderLimits(deps, who, report);
  const outcome = await writeTransaction(deps.db, async (tx): Promise<OrderOutcome | { limited: Counted }> => {
    await lockForTransaction(tx, `order-phone:${r.store.account_id}:${e164}`, idemKey ? `order-key:${r.store.id}:${idemKey}` : undefined);
    if (!countApart) {
      const counted = await countOrderLimits(tx, deps, who);
      report(counted.shown);
      // Over a limit: the counts commit, nothing else is written.
      if (counted.exceeded) return { limited: counted };
    }
    if (idemKey) {
      const previous = await findIdempotency(tx, r.store.id, idemKey);
      if (previous) {
        if (previous.request_hash !== requestHash)
          throw new AppError('idempotency_mismatch', 'Idempotency-Key was already used with a different body', [
            { field: 'Idempotency-Key', message: 'already used with a different request body' },
          ]);
        return { body: JSON.parse(previous.body) as CreateOrderSuccess, replayed: true };
      }
    }
    const remember = (body: CreateOrderSuccess) =>
      idemKey
        ? insertIdempotency(tx, { scope: r.store.id, key: idemKey, request_hash: requestHash, status: 200, body: JSON.stringify(body), created_at: nowIso })
        : Promise.resolve();

    // The phone's orders across the account, read once: the duplicate check's and the return risk's.
    const id = newId();
    const sandbox = r.sandbox ? 1 : 0;
    const history = await phoneOrders(tx, { accountId: r.store.account_id, phone: e164, sandbox, excludeId: id });
    const since = new Date(now.getTime() - DUPLICATE_WINDOW_MS).toISOString();
    // A phone with more orders inside the window than the history holds: the first duplicate may be
    // older than all of them, so the database is asked for it.
    const truncated = history.length === PHONE_HISTORY_LIMIT && history.at(-1)!.created_at >= since;
    const duplicate = truncated
      ? await findRecentDuplicate(tx, { storeId: r.store.id, productId: r.productId, phone: e164, pack: price.pack.code, quantity: input.quantity, sandbox, since })
      : firstDuplicate(history, { storeId: r.store.id, productId: r.productId, pack: price.pack.code, quantity: input.quantity, since });
    if (duplicate) {
      const first = (await findOrder(tx, duplicate.id))!;
      const body = createdBody(first);
      await remember(body);
      return { body, replayed: true };
    }

    const draft = {
      id,
      store_id: r.store.id,
      product_id: r.productId,
      landing_page_id: r.landingId,
      api_key_id: r.key?.id ?? r.principalKeyId ?? null,
      status: 'pending' as const,
      sandbox,
      needs_review: needsReview ? 1 : 0,
      nombre: input.nombre,
      telefono: input.telefono,
      telefono_e164: e164,
      departamento: city?.confident ? city.region! : input.departamento,
      ciudad: city?.confident ? city.city! : input.ciudad,
      departamento_input: input.departamento,
      ciudad_input: input.ciudad,
      city_code: city?.confident ? (city.code ?? null) : null,
      city_match: city ? city.method : ('not_applicable' as const),
      direccion: input.direccion,
      barrio: input.barrio || null,
      referencia: input.referencia || null,
      distrito: input.distrito || null,
      colonia: input.colonia || null,
      codigo_postal: input.codigo_postal || null,
      pack: price.pack.code,
      pack_units: price.pack.units,
      quantity: input.quantity,
      unit_price_minor: price.unitPriceMinor,
      total_price_minor: price.totalPriceMinor,
      currency: r.store.currency,
      client_ip: req.ip,
      fulfillment_status: null,
      tracking_number: null,
      cancel_reason: null,
      created_at: nowIso,
      updated_at: nowIso,
    };
    // The return risk, before the push job: a store's risk hold applies to the first push (issue 25).
    const risk = await orderRisk(tx, { ...draft, confirmation: null, confirmed_by: null }, r.store, history);
    // The store's number last, once everything read is read: from here to the commit, the other
    // orders of the store wait on its row (PostgreSQL), so as little as possible happens after it.
    const order = { ...draft, order_number: await takeOrderNumber(tx, r.store.id) };
    const stored = await insertOrder(tx, { ...order, risk_score: risk.score, risk_reasons: JSON.stringify(risk.reasons) });
    // This order is a repeat for the phone's other open orders of the day: their score moves too.
    for (const id of risk.neighbours) await refreshRisk(tx, id);
    if (!r.sandbox) {
      // The outbox job is written with the order (SPEC 7); a flagged city holds it until resolved.
      await insertJob(tx, {
        id: newId(),
        order_id: order.id,
        action: 'push',
        // The store's push policy and a city awaiting review hold it (SPEC 6, 7).
        state: pushReleased({ status: 'pending', needs_review: needsReview, risk_score: risk.score }, r.store) ? 'queued' : 'held',
        attempts: 0,
        next_attempt_at: nowIso,
        lease_until: null,
        last_error: null,
        remote_id: null,
        first_attempt_at: null,
        unknown_outcome: 0,
        destination: platformDestination(r.store.id),
        created_at: nowIso,
        updated_at: nowIso,
      });
    }
    // After the push job, so a subscriber sees the order as it will be committed (the buyer's notice, the seller's webhook).
    await deps.orderEvents.record(tx, {
      order_id: order.id,
      store_id: r.store.id,
      type: 'order.created',
      actor: r.actor,
      data: {
        mode: r.mode,
        sandbox: r.sandbox,
        city: city ? { method: city.method, score: city.score, confident: city.confident, reason: city.reason, candidates: city.candidates ?? [] } : null,
      },
      created_at: nowIso,
    }, stored);
    if (req.note) await deps.orderEvents.record(tx, { order_id: order.id, store_id: r.store.id, type: 'order.note', actor: r.actor, data: { text: req.note }, created_at: nowIso });
    if (r.key && (r.key.last_used_at === null || now.getTime() - Date.parse(r.key.last_used_at) > KEY_TOUCH_INTERVAL_MS)) await touchKey(tx, r.key.id, nowIso);
    const body = createdBody(order);
    await remember(body);
    return { body, replayed: false };
  }, 'read committed');
  if ('limited' in outcome) throw rateLimited(outcome.limited.exceeded!);
  if (!outcome.replayed) {
    deps.nudge.fulfillment();
    deps.nudge.whatsapp();
  }
  if (!outcome.replayed) deps.log.info({ orderId: outcome.body.data.id, storeId: r.store.id, number: outcome.body.data.order_number }, 'order created');
  return outcome;
}
