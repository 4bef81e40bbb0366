// Every limit the code enforces, in one place (SPEC section 8; seed section 8).
// The README's "Limits" table lists these values.

/** Request bodies over this many bytes are refused with 413 (SPEC 4). */
export const MAX_BODY_BYTES = 64 * 1024;

/** CreateOrderInput field lengths (seed 2.1 / 8), counted after trimming. */
export const ORDER_FIELD_LIMITS = {
  nombre: { min: 2, max: 100 },
  telefono: { min: 6, max: 20 },
  departamento: { min: 2, max: 50 },
  ciudad: { min: 2, max: 100 },
  direccion: { min: 5, max: 300 },
  barrio: { max: 100 },
  referencia: { max: 300 },
  distrito: { max: 100 },
  colonia: { max: 100 },
  codigo_postal: { max: 15 },
  pack: { min: 1, max: 20 },
} as const;

export const ORDER_QUANTITY = { min: 1, max: 10, default: 1 } as const;
export const DEFAULT_PACK = '1x';

/** Money is exposed in major units with at most this many decimals, stored ×100 (SPEC 3). */
export const MONEY_DECIMALS = 2;
/** Largest accepted amount in major units (keeps minor units a safe integer). */
export const MAX_MONEY_MAJOR = 1_000_000_000_000;
/** Tolerance of the `total_price ≥ unit_price × quantity` check, in major units (SPEC 4.1 step 8). */
export const TOTAL_PRICE_TOLERANCE_MINOR = 1;

export const DEFAULT_MAX_DISCOUNT_PCT = 30;

/** Default order rate limits (SPEC 2); the config can override them. */
export const DEFAULT_RATE_IP_PER_MIN = 10;
export const DEFAULT_RATE_KEY_PER_MIN = 120;
export const DEFAULT_RATE_PHONE_PER_HOUR = 5;
export const RATE_WINDOW_IP_MS = 60_000;
export const RATE_WINDOW_KEY_MS = 60_000;
export const RATE_WINDOW_PHONE_MS = 3_600_000;

/** Duplicate suppression window (SPEC 4.1 step 10). */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;
/** A phone's latest orders across the account that the return-risk score reads (and a new order's duplicate check, first). */
export const PHONE_HISTORY_LIMIT = 100;

/** Idempotency-Key header: printable ASCII, this long at most; records kept this long. */
export const IDEMPOTENCY_KEY_MAX = 255;
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** How often `serve` sweeps expired rate-limit windows and idempotency records. */
export const SWEEP_INTERVAL_MS = 10 * 60_000;
/** How often `serve` looks for confirmations whose reminder or call-queue time came (issue 25). */
export const CONFIRMATION_TIMER_MS = 15_000;

/** Per-store order numbers start here (SPEC 4.1 step 11). */
export const FIRST_ORDER_NUMBER = 1001;

/** GET /api/geo/cities cache lifetime (seed 8: 1 day). */
export const CITIES_MAX_AGE_S = 86_400;
/** How often a serving process re-checks a catalog's version in the database. */
export const CATALOG_VERSION_CHECK_MS = 1_000;

/** Keys (SPEC 5). */
export const PUBLISHABLE_KEY_RANDOM_CHARS = 32;
export const SECRET_KEY_RANDOM_CHARS = 40;
export const KEY_DISPLAY_PREFIX_CHARS = 4;
export const MAX_KEY_LENGTH = 100;

/** SQLite busy timeout (SPEC 2). */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;
/** SQLite's page cache per connection, in KiB (PRAGMA cache_size = -N). */
export const SQLITE_CACHE_KIB = 16_384;
/** PostgreSQL (issue 28): connections per process's pool. Two instances take 2× this of the server's max_connections (100 by default). */
export const PG_POOL_MAX = 10;
/** How long a new PostgreSQL connection may take before the query that needed it fails. */
export const PG_CONNECT_TIMEOUT_MS = 10_000;
/** A statement that runs longer is cancelled by the server (a lock held by a stuck process, a runaway query). */
export const PG_STATEMENT_TIMEOUT_MS = 30_000;
/** A connection idle inside a transaction this long is closed by the server, releasing its locks. */
export const PG_IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;
/** A transaction that fails to serialize (SQLSTATE 40001, 40P01) is run again, this many times at most. */
export const PG_SERIALIZATION_RETRIES = 30;
/** How far apart those runs are: a random wait up to this, doubled at each retry. */
export const PG_RETRY_BASE_MS = 5;
/** `codrail db copy`: rows read and inserted at a time (a multi-row INSERT of this many stays under both databases' parameter limits). */
export const COPY_BATCH_ROWS = 500;
/** How far serve's V8 heap may grow past what survived the last full collection, in percent (V8's own heuristic allows up to 300). */
export const SERVE_HEAP_GROWING_PERCENT = 50;
/** serve's WAL checkpoints, in a worker thread (src/db/checkpointer.ts): how often it copies the log back. */
export const CHECKPOINT_INTERVAL_MS = 100;
/** The log size, in pages, at which serve's own connection checkpoints in a COMMIT if the worker has not (SQLite's default is 1,000). */
export const CHECKPOINT_FALLBACK_PAGES = 10_000;
/** Configuration rows kept in memory per connection (src/db/read-cache.ts); past this it starts again, so keys tried at random cannot grow it. */
export const READ_CACHE_MAX_ENTRIES = 5_000;
/**
 * Group commit (src/db/transaction.ts): at most this many writes in one SQLite transaction, and no
 * new one joins after this long, so a busy second's first caller is not held behind the rest.
 */
export const GROUP_COMMIT_MAX_WRITES = 64;
export const GROUP_COMMIT_MAX_MS = 3;
/** An outbox loop woken by a new row looks this long after the first nudge, so one claim takes a busy moment's rows together. */
export const OUTBOX_NUDGE_MS = 10;

/** Graceful shutdown: in-flight requests get this long before sockets are destroyed (default of --shutdown-grace-ms). */
export const SHUTDOWN_GRACE_MS = 10_000;

/** Server timeouts against slow clients. The headers one is the default of --headers-timeout-ms, at most the request one. */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;
/** How often Node enforces the header and request timeouts (its default, 30 s, triples the first). */
export const CONNECTIONS_CHECK_MS = 1_000;
/** A request line longer than this is 414 (the whole header block is bounded by Node's 16 KiB). */
export const MAX_URL_BYTES = 8_192;
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** CLI list commands. */
export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 1_000;

/** MCP list tools (MCP-TOOLS.md §5.8): page size default and maximum; other values are clamped. */
export const TOOL_LIST_DEFAULT_LIMIT = 20;
export const TOOL_LIST_MAX_LIMIT = 100;
/** MCP tool descriptions (MCP-TOOLS.md §5.3) and the serialized tools/list budget (§7). */
export const TOOL_DESCRIPTION_MAX = 350;
export const TOOLS_LIST_MAX_BYTES = 65_536;

/** Store and catalog names. */
export const NAME_MAX = 200;
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$/;
export const MAX_DISCOUNT_PCT_RANGE = { min: 0, max: 100 } as const;

/** `codrail cities import`: file size, rows, name lengths; problems reported before giving up. */
export const CATALOG_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const CATALOG_MAX_ROWS = 100_000;
export const CATALOG_NAME_MAX = 120;
export const CATALOG_CODE_MAX = 20;
export const CATALOG_MAX_PROBLEMS = 20;
/** `codrail cities match --file`: rows per run. */
export const MATCH_FILE_MAX_ROWS = 100_000;

/** Fulfillment push (SPEC 7): request timeout, pushes in flight, attempts before dead. */
export const DEFAULT_FULFILLMENT_TIMEOUT_MS = 10_000;
export const DEFAULT_FULFILLMENT_CONCURRENCY = 4;
/** A push keeps trying for this long (issue 13): any platform outage shorter than 3 days heals by itself. */
export const DEFAULT_FULFILLMENT_GIVE_UP_AFTER_MS = 72 * 3_600_000;
/** The largest platform answer read (a catalog page of 100 products is far below). */
export const PLATFORM_ANSWER_MAX_BYTES = 2 * 1024 * 1024;
/** Backoff: base × 2^(attempt-1), capped, with full jitter; Retry-After wins when longer. */
export const FULFILLMENT_BACKOFF_BASE_MS = 1_000;
export const FULFILLMENT_BACKOFF_MAX_MS = 10 * 60_000;
/** A claimed job's lease: three request timeouts plus this margin; then another worker may retry it (a crash mid-push). */
export const FULFILLMENT_LEASE_MARGIN_MS = 1_000;
/** How often the worker looks for due jobs when it has nothing to do. */
export const FULFILLMENT_POLL_MS = 250;
/** The secret path of an unsigned platform's webhook receiver: base62, ~190 bits. */
export const HOOK_TOKEN_CHARS = 32;
/** A platform's city catalog imported for a store (Colombia has ~1,100 municipalities; Dropi adds corregimientos). */
export const PLATFORM_CATALOG_MAX_CITIES = 20_000;
/** Re-reads of unsigned platform webhooks run after the answer, this many at once, at most this many waiting. */
export const HOOK_REREAD_CONCURRENCY = 2;
export const HOOK_REREAD_QUEUE_MAX = 1_000;
/** A catalog read from a platform (cities import) is tried this many times, waiting 0.5 s doubling to 10 s. */
export const PLATFORM_READ_TRIES = 6;
export const PLATFORM_READ_FIRST_WAIT_MS = 500;
export const PLATFORM_READ_MAX_WAIT_MS = 10_000;
/** Dropi (issue 22 §3): one request at a time per integration key, about one a second, whoever calls. */
export const DROPI_INTERVAL_MS = 1000;
/** A look-up of an order at Dropi pages the order list by creation date: at most this many pages of 100. */
export const DROPI_LOOKUP_MAX_PAGES = 20;
/** A cancellation waits this long for a push in flight to record its outcome. */
export const FULFILLMENT_CANCEL_WAIT_MS = 1_000;
/** How long a tool waits for a push or cancel it started (or found in flight) before answering "queued". */
export const FULFILLMENT_TOOL_WAIT_MS = 15_000;
/** push_confirmed_orders: at most this many orders per call (MCP-TOOLS.md §6.8), 20 by default. */
export const PUSH_BATCH_MAX = 50;
export const PUSH_BATCH_DEFAULT = 20;
/** sync_fulfillment_status: orders read from the platform per call. */
export const SYNC_MAX_ORDERS = 100;
/** Signed webhooks older or newer than this are refused (replay window). */
export const WEBHOOK_TOLERANCE_S = 300;

/** OAuth 2.1 authorization server (seed §8, OAUTH.md). */
export const OAUTH_ACCESS_TOKEN_TTL_S = 3_600;
export const OAUTH_CODE_TTL_S = 60;
/** Refresh tokens: idle and absolute lifetimes (OAUTH.md decision 10). */
export const OAUTH_REFRESH_IDLE_S = 30 * 86_400;
export const OAUTH_REFRESH_ABSOLUTE_S = 90 * 86_400;
/** Ended token families and dead refresh tokens are deleted this long after they ended (kept a while for support's audit). */
export const OAUTH_PRUNE_AFTER_S = 30 * 86_400;
/** Signed-in browser session of the sign-in and consent pages. */
export const OAUTH_SESSION_TTL_S = 12 * 3_600;
/** Dynamic client registration: per client IP per hour (OAUTH.md T29), and its body size. */
export const OAUTH_REGISTER_PER_HOUR = 20;
export const OAUTH_REGISTER_MAX_BYTES = 16 * 1024;
export const OAUTH_MAX_REDIRECT_URIS = 10;
export const OAUTH_CLIENT_NAME_MAX = 200;
/** Sign-in attempts per client IP per 15 minutes. */
export const OAUTH_SIGNIN_PER_WINDOW = 20;
export const OAUTH_SIGNIN_WINDOW_MS = 15 * 60_000;
/**
 * Wrong passwords for one email from one client address (issue 19 §7): the first few cost nothing,
 * then each further one doubles the wait before that address may try that email again, capped at
 * the window; a run of failures is forgotten a window after its last one, or by a sign-in.
 */
export const OAUTH_SIGNIN_FREE_FAILURES = 5;
export const OAUTH_SIGNIN_FIRST_WAIT_MS = 1_000;
export const OAUTH_SIGNIN_MAX_WAIT_MS = OAUTH_SIGNIN_WINDOW_MS;
/** Form bodies of the authorize, token and revoke endpoints. */
export const OAUTH_FORM_MAX_BYTES = 16 * 1024;
/** `state` is echoed verbatim up to this length (OAUTH.md T37). */
export const OAUTH_STATE_MAX = 4_096;
/** Random characters of a client id, an authorization code, a refresh token, a session id. */
export const OAUTH_CLIENT_ID_CHARS = 32;
export const OAUTH_SECRET_CHARS = 48;
/** Tolerated clock skew when verifying access tokens. */
export const OAUTH_CLOCK_SKEW_S = 30;

/** The merchant's account (issue 10): sizes of the things an account operation writes. */
export const MAX_STORE_DOMAINS = 50;
/** The store's delivery time and guarantee lines on the buyer's page: one short line each (issue 23). */
export const STORE_TRUST_MAX = 80;
export const SKU_MAX = 64;
export const DESCRIPTION_MAX = 5_000;
export const MAX_PRODUCT_IMAGES = 20;
export const URL_MAX = 2_000;
export const IMAGE_ALT_MAX = 200;
/**
 * Product images hosted by codrail (issue 23 §3). An image file or fetched answer is read as a
 * stream and cut at IMAGE_MAX_BYTES; its header must declare at most IMAGE_MAX_PIXELS before a
 * pixel is decoded (a decompression bomb — a tiny PNG declaring 50,000×50,000 — is refused from
 * its header), and at least IMAGE_MIN_SIDE on each side.
 */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGE_MAX_PIXELS = 40_000_000;
export const IMAGE_MIN_SIDE = 100;
/** The tallest re-encoded file (WebP's own limit): a banner far taller than wide is refused rather than cut. */
export const IMAGE_MAX_ENCODED_HEIGHT = 16_383;
/** Fetching an image by URL: one deadline over connect, headers and body; redirects followed (each hop checked again). */
export const IMAGE_FETCH_TIMEOUT_MS = 15_000;
export const IMAGE_FETCH_REDIRECTS = 3;
/** URLs of one call fetched at once. */
export const IMAGE_FETCH_CONCURRENCY = 4;
/**
 * Images re-encoded at once by one process. One image keeps three of libuv's four worker threads
 * busy (its three formats of one width at a time), leaving one for file, DNS and crypto work.
 */
export const IMAGE_ENCODE_CONCURRENCY = 1;
/** Hosted image files never change under their URL (content-addressed): cached for a year, immutable. */
export const IMAGE_MAX_AGE_S = 31_536_000;
/** Recently served image files kept in memory by each server, in bytes (a 1280 px JPEG is ~100–300 KB). */
export const IMAGE_CACHE_BYTES = 32 * 1024 * 1024;
/** A product's pack ladder (MCP-TOOLS.md §6.5: packs[1–6]); a pack is at most this many units. */
export const MAX_PACKS = 6;
export const MAX_PACK_UNITS = 100;
export const PACK_LABEL_MAX = 60;
/** update_pack_prices batch size (§6.5). */
export const MAX_PRICE_UPDATES = 100;
/** Units a quote may ask for (an order is one pack bought 1..10 times). */
export const MAX_QUOTE_UNITS = MAX_PACK_UNITS * 10;
/** Landing pages (§6.6): sections and their parts. */
export const MAX_SECTIONS = 30;
export const SECTION_HEADING_MAX = 200;
export const SECTION_BODY_MAX = 2_000;
export const MAX_SECTION_ITEMS = 12;
export const SECTION_ITEM_TITLE_MAX = 120;
export const SECTION_ITEM_TEXT_MAX = 500;
export const SEO_TITLE_MAX = 70;
export const SEO_DESCRIPTION_MAX = 160;
/** API key labels. */
export const KEY_LABEL_MAX = 100;
/** list_price_floor_violations look-back (§6.5), default and maximum days. */
export const FLOOR_VIOLATION_DAYS = { default: 30, max: 365 } as const;
/** A key's last_used_at is written at most this often (one write per minute per key, not per request). */
export const KEY_TOUCH_INTERVAL_MS = 60_000;

/** The buyer's side (issue 11): seconds browsers may reuse a landing page, checkout.js and a checkout product read before revalidating (ETag). */
export const LANDING_MAX_AGE_S = 60;
export const CHECKOUT_SCRIPT_MAX_AGE_S = 300;
/** Landing pages kept rendered and compressed in memory, by version. */
export const LANDING_CACHE_ENTRIES = 200;
/** The no-script form post of a landing page. */
export const LANDING_FORM_MAX_BYTES = 16 * 1024;

/**
 * One circuit per outbox destination (issue 21 §2): this many failures in a row open it; a probe goes
 * after the first wait, doubling to the cap while probes fail; a probe that succeeds makes every
 * waiting job of that destination due at once.
 */
export const CIRCUIT_FAILURES_TO_OPEN = 5;
export const CIRCUIT_FIRST_PROBE_MS = 1_000;
export const CIRCUIT_MAX_PROBE_MS = 5_000;

// WhatsApp outbox (issue 12). The Cloud API accepts tens of messages per second per number; a small
// concurrency keeps the buyer's messages in order and far from its throughput limits.
export const WHATSAPP_CONCURRENCY = 4;
export const WHATSAPP_POLL_MS = 250;
export const WHATSAPP_TIMEOUT_MS = 10_000;
/** The largest Cloud API answer read (a send answers a few hundred bytes; a phone-number list a few KB). */
export const WHATSAPP_ANSWER_MAX_BYTES = 256 * 1024;
export const WHATSAPP_MAX_ATTEMPTS = 8;
export const WHATSAPP_BACKOFF_BASE_MS = 1_000;
export const WHATSAPP_BACKOFF_MAX_MS = 5 * 60_000;
/** Status webhooks (Meta's POSTs) larger than this are refused. */
export const WHATSAPP_WEBHOOK_MAX_BYTES = 256 * 1024;
/**
 * A status report about a message id not recorded yet is kept this long for its send to be recorded
 * (issue 28: the report can overtake the recording, on another instance or this one). A send
 * records its id within its lease (WHATSAPP_TIMEOUT_MS × 2) or never will.
 */
export const WHATSAPP_EARLY_STATUS_KEEP_MS = 10 * 60_000;

// Outbound webhooks (issue 21; SPEC 17): delivered at least once, signed, retried for three days.
export const WEBHOOK_CONCURRENCY = 4;
export const WEBHOOK_POLL_MS = 250;
/** One deadline over connect, headers and body of a delivery. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** The largest answer body read from an endpoint (its content is not used). */
export const WEBHOOK_ANSWER_MAX_BYTES = 64 * 1024;
/** Retries (timeouts, 5xx, 429) for this long, then the delivery is given up (replay sends it again). */
export const WEBHOOK_GIVE_UP_AFTER_MS = 72 * 3_600_000;
export const WEBHOOK_BACKOFF_BASE_MS = 5_000;
export const WEBHOOK_BACKOFF_MAX_MS = 3_600_000;
/** An endpoint whose deliveries have failed for this long without one success is disabled (with an event and a log line). */
export const WEBHOOK_DISABLE_AFTER_MS = 5 * 86_400_000;
/** Endpoints per store, the URL length, the description, the secret's random characters. */
export const WEBHOOK_ENDPOINTS_PER_STORE = 16;
export const WEBHOOK_URL_MAX = 2_000;
export const WEBHOOK_DESCRIPTION_MAX = 200;
export const WEBHOOK_SECRET_CHARS = 32;
/** A rotated secret keeps signing for this long by default (minutes), and at most this long. */
export const WEBHOOK_ROTATION_GRACE_DEFAULT_MIN = 24 * 60;
export const WEBHOOK_ROTATION_GRACE_MAX_MIN = 7 * 24 * 60;
/** Events one replay may send again. */
export const WEBHOOK_REPLAY_MAX_EVENTS = 1_000;
/** How long `codrail webhooks test` waits for its delivery's outcome. */
export const WEBHOOK_TEST_WAIT_MS = 15_000;
/** A receiver's tolerance for the signature's timestamp (what the README's verification uses). */
export const WEBHOOK_SIGNATURE_TOLERANCE_S = 300;

/** JSON bodies nest at most this deep (issue 13 §2): real bodies need 4; a hostile one gets a 400. */
export const MAX_JSON_DEPTH = 32;

// Client ID Metadata Documents (issue 13 §4; draft-ietf-oauth-client-id-metadata-document).
/** A client's document is read again after this long (and on the first use after it). */
export const OAUTH_CIMD_CACHE_MS = 5 * 60_000;
export const OAUTH_CIMD_TIMEOUT_MS = 5_000;
export const OAUTH_CIMD_MAX_BYTES = 16 * 1024;
/** Documents fetched at once by one server; a request beyond it is answered as an unknown client, unfetched (issue 19 §1). */
export const OAUTH_CIMD_MAX_CONCURRENT = 4;
/** Document fetches one client address may cause per window (a cached document costs none). */
export const OAUTH_CIMD_FETCHES_PER_IP = 10;
export const OAUTH_CIMD_FETCH_WINDOW_MS = 60_000;
/** A document URL that failed (unreachable, too large, invalid) is not fetched again for this long. */
export const OAUTH_CIMD_FAILURE_CACHE_MS = 60_000;
/** Failed URLs remembered at most (the oldest are forgotten first). */
export const OAUTH_CIMD_FAILURES_REMEMBERED = 1_000;
/** Longest client_id read (a metadata document URL). */
export const OAUTH_CLIENT_ID_MAX = 2_000;
