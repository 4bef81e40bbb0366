import { setFlagsFromString } from 'node:v8';
import type { Command } from 'commander';
import { baseUrlIsExplicit, databaseLabel, loadConfig, withListenPort, type ConfigFlags } from '../config.ts';
import { CONFIRMATION_TIMER_MS, SERVE_HEAP_GROWING_PERCENT, SWEEP_INTERVAL_MS } from '../limits.ts';
import { fail, globals } from './output.ts';
import { AppError } from '../errors.ts';

interface ServeOptions extends Omit<ConfigFlags, 'db'> {
  demo?: boolean;
}

export function register(program: Command): void {
  program
    .command('serve')
    .description('migrate, then serve the API (and, with --demo, load demo data and print a first curl)')
    .option('--port <n>', 'listen port (PORT, default 3000)')
    .option('--host <host>', 'listen host (HOST, default 127.0.0.1)')
    .option('--base-url <url>', 'public base URL (CODRAIL_BASE_URL, default http://<host>:<port>)')
    .option('--trust-proxy [hops]', 'read the client IP from X-Forwarded-For, trusting this many proxies (CODRAIL_TRUST_PROXY)')
    .option('--fulfillment-url <url>', 'the default platform (generic contract) URL (CODRAIL_FULFILLMENT_URL); unset: only stores with their own connection push')
    .option('--dropi-url <url>', "send every Dropi connection here instead of Dropi's hosts, e.g. a `fulfillment sim --dialect dropi` (CODRAIL_DROPI_URL)")
    .option('--dropi-interval-ms <n>', 'least gap between two requests of one Dropi key (CODRAIL_DROPI_INTERVAL_MS, default 1000)')
    .option('--fulfillment-concurrency <n>', 'pushes in flight (CODRAIL_FULFILLMENT_CONCURRENCY, default 4)')
    .option('--fulfillment-backoff-max-ms <n>', 'cap on the delay between two tries (CODRAIL_FULFILLMENT_BACKOFF_MAX_MS, default 600000)')
    .option('--fulfillment-give-up-after <duration>', 'how long a push keeps trying before it is dead, e.g. 72h, 30m (CODRAIL_FULFILLMENT_GIVE_UP_AFTER, default 72h)')
    .option('--fulfillment-timeout-ms <n>', 'platform request timeout (CODRAIL_FULFILLMENT_TIMEOUT_MS, default 10000)')
    .option('--fulfillment-backoff-ms <n>', 'first retry delay, doubled per attempt (CODRAIL_FULFILLMENT_BACKOFF_MS, default 1000)')
    .option('--whatsapp-url <url>', 'WhatsApp Cloud API base, e.g. https://graph.facebook.com/v21.0 (CODRAIL_WHATSAPP_URL); unset: messages stay queued')
    .option('--metrics-port <n>', 'serve GET /metrics (Prometheus) on this port (CODRAIL_METRICS_PORT); unset: off')
    .option('--metrics-host <host>', 'listen host of the metrics port (CODRAIL_METRICS_HOST, default 127.0.0.1)')
    .option('--log-level <level>', 'fatal|error|warn|info|debug|trace|silent (LOG_LEVEL, default info)')
    .option('--rate-ip-per-min <n>', 'order requests per client IP per minute (CODRAIL_RATE_IP_PER_MIN, default 10)')
    .option('--rate-key-per-min <n>', 'order requests per key per minute (CODRAIL_RATE_KEY_PER_MIN, default 120)')
    .option('--rate-phone-per-hour <n>', 'order requests per buyer phone per hour (CODRAIL_RATE_PHONE_PER_HOUR, default 5)')
    .option('--rate-register-per-hour <n>', 'OAuth client registrations per client IP per hour (CODRAIL_RATE_REGISTER_PER_HOUR, default 20)')
    .option('--headers-timeout-ms <n>', 'how long a client may take to send its request headers before a 408 (CODRAIL_HEADERS_TIMEOUT_MS, default 10000, at most 30000)')
    .option('--webhook-timeout-ms <n>', "a webhook delivery's deadline over connect, headers and body (CODRAIL_WEBHOOK_TIMEOUT_MS, default 10000)")
    .option('--webhook-backoff-ms <n>', 'first delay between two tries of a webhook delivery, doubling to an hour (CODRAIL_WEBHOOK_BACKOFF_MS, default 5000)')
    .option('--shutdown-grace-ms <n>', 'on SIGTERM, how long requests in flight may take before they are cut (CODRAIL_SHUTDOWN_GRACE_MS, default 10000)')
    .option('--whole-currencies <list>', 'currencies whose prices must be whole, e.g. COP (CODRAIL_WHOLE_CURRENCIES; default none: ISO 4217 decimals)')
    .option('--demo', 'load the demo account, store, product, landing and a fresh test key, and print a curl')
    .action(async (o: ServeOptions, cmd: Command) => {
      try {
        await serve({ ...o, db: globals(cmd).db });
      } catch (error) {
        fail(error);
      }
    });
}

/** Every HTTP route: the REST API, the OAuth authorization server and the MCP endpoint. */
export async function loadRoutes() {
  const [{ routes }, { oauthRoutes }, { mcpRoutes }] = await Promise.all([import('../api/routes.ts'), import('../oauth/routes.ts'), import('../mcp/routes.ts')]);
  return [...routes, ...oauthRoutes, ...mcpRoutes];
}

export async function serve(flags: ServeOptions & { db?: string | undefined }): Promise<void> {
  // V8 lets the old generation grow up to 4× what survived the last full collection when garbage
  // comes fast: at 2,400 orders/s that was 160 MB of heap over 40 MB live, 290 MB of RSS. Growing
  // by half instead keeps serve near 175 MB with the same orders/s (issue 26's bench); it is no
  // limit, the heap still grows as far as the live data needs. V8 reads it at each collection.
  setFlagsFromString(`--heap-growing-percent=${SERVE_HEAP_GROWING_PERCENT}`);
  // Loaded when serving, not when the CLI starts (`codrail --help` stays fast, SPEC 14).
  const [{ migrate, openApp }, { createHttpServer }, routes, { runDemo }, { sweepExpired }, { startPushWorker, startWhatsappWorker, startWebhookWorker, recordOperatorUrls }, { startMetricsServer }, { runConfirmationTimers }, { startCheckpointer }] = await Promise.all([
    import('../app.ts'),
    import('../http/server.ts'),
    loadRoutes(),
    import('../use-cases/demo.use-case.ts'),
    import('../use-cases/maintenance.use-case.ts'),
    import('../use-cases/fulfillment/push-worker.use-case.ts'),
    import('../http/metrics-server.ts'),
    import('../use-cases/orders/confirmation.use-case.ts'),
    import('../db/checkpointer.ts'),
  ]);
  const config = loadConfig(flags);
  const app = await openApp(config);
  await migrate(app);
  const checkpointer = await startCheckpointer(app.db, config.dbFile, app.log);
  // The key that seals stored credentials exists from the first run (a key file next to the database
  // unless CODRAIL_SECRET_KEY is set), so backing up the database directory backs it up too.
  app.secrets.box();
  const http = createHttpServer(app, routes);
  let port: number;
  try {
    port = await http.listen(config.port, config.host);
  } catch (error) {
    await app.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new AppError('conflict', `Port ${config.port} on ${config.host} is already in use (another codrail serve?): pick another with --port N or PORT=N, or stop the other process`);
    if ((error as NodeJS.ErrnoException).code === 'EACCES') throw new AppError('conflict', `Not allowed to listen on port ${config.port} on ${config.host}: ports under 1024 need privileges; use --port 3000 or higher`);
    throw error;
  }
  const deps = { ...app, config: withListenPort(config, port, baseUrlIsExplicit(flags)) };
  http.useDeps(deps);
  // From the moment the socket listens, SIGTERM drains: a signal during the rest of the start (the
  // banner, the operator's URLs, the workers; slower on PostgreSQL) would otherwise take Node's
  // default and kill the process with requests in flight.
  let stopping = false;
  let metrics: Awaited<ReturnType<typeof startMetricsServer>> | undefined;
  let sweep: NodeJS.Timeout | undefined;
  let confirmations: NodeJS.Timeout | undefined;
  let workers: ({ stop(): Promise<void> } | undefined)[] = [];
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(sweep);
    clearInterval(confirmations);
    app.log.info({ signal }, 'shutting down: draining requests');
    await Promise.all([http.close(), ...workers.map((w) => w?.stop()), metrics?.close()]);
    await checkpointer?.stop();
    await app.close();
    app.log.flush();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  const base = deps.config.baseUrl;
  metrics = config.metricsPort === undefined ? undefined : await startMetricsServer(app, config.metricsPort, config.metricsHost);
  app.log.info({ port, base, metricsPort: metrics?.port }, 'codrail listening');
  // Behind a proxy the public base URL is not where the socket listens: the banner says both.
  const local = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const out: string[] = [
    local === base ? `codrail listening on ${base}  (database ${databaseLabel(config)})` : `codrail listening on ${local}  (public base URL ${base}; database ${databaseLabel(config)})`,
    `  health:   curl ${base}/healthz`,
    `  cities:   curl '${base}/api/geo/cities?country=CO'`,
    `  openapi:  ${base}/openapi.json`,
    config.fulfillmentUrl
      ? `  fulfillment: pushing live orders to ${new URL(config.fulfillmentUrl).origin}, or to each store's own connection (codrail fulfillment list)`
      : "  fulfillment: no default platform (CODRAIL_FULFILLMENT_URL); stores with their own connection push (codrail fulfillment connection set STORE --platform dropi …), the others' orders stay queued",
    config.whatsappUrl
      ? `  whatsapp: sending buyer messages through ${new URL(config.whatsappUrl).origin} (statuses: POST ${base}/api/whatsapp/webhook)`
      : '  whatsapp: no Cloud API configured (CODRAIL_WHATSAPP_URL); messages stay queued',
    metrics ? `  metrics:  curl http://${config.metricsHost}:${metrics.port}/metrics` : '  metrics:  off (--metrics-port N serves GET /metrics on its own port)',
  ];
  if (flags.demo) {
    const demo = await runDemo(deps);
    out.push(
      '',
      `demo store ${demo.store.id} (${demo.store.country}, ${demo.store.currency}), product ${demo.product.id}, landing ${demo.landing.id}`,
      `open the demo landing page (a buyer's view): ${demo.landing.url}`,
      `demo test key (sandbox, shown once; a new one each start): ${demo.key.key}`,
      'place a first order:',
      `  ${demo.curl}`,
      '',
      'manage the account over REST (/api/v1, the same operations as the MCP tools): make a secret key, then call it',
      `  npx codrail keys create-secret ${demo.store.id}`,
      `  curl -s ${base}/api/v1/products -H 'authorization: Bearer svc_live_secret_…'`,
      '',
      `connect an MCP client (MCP Inspector, Claude Code, VS Code…) to ${demo.mcp.url}`,
      `  it discovers OAuth by itself; sign in as ${demo.user.email} / ${demo.user.password} (a new password each start)`,
    );
  }
  process.stderr.write(`${out.join('\n')}\n`);

  if (stopping) return;
  sweep = setInterval(() => {
    sweepExpired(app).then(
      (n) => app.log.debug(n, 'swept expired records'),
      (err: unknown) => app.log.error({ err }, 'sweep failed'),
    );
  }, SWEEP_INTERVAL_MS);
  sweep.unref();
  // The buyer's confirmation clock: reminders, then the call queue (one pass at a time).
  let timing = false;
  confirmations = setInterval(() => {
    if (timing) return;
    timing = true;
    runConfirmationTimers(deps)
      .then(
        (n) => (n.reminded || n.queued ? app.log.info(n, 'confirmations: reminders sent, unanswered orders queued for a call') : undefined),
        (err: unknown) => app.log.error({ err }, 'confirmation timers failed'),
      )
      .finally(() => (timing = false));
  }, CONFIRMATION_TIMER_MS);
  confirmations.unref();
  // A promise nobody handled is a bug, but not a reason to stop taking orders (Node 20 would exit):
  // log it with its stack and keep serving. Every known promise is handled where it is made.
  process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled promise rejection (a bug): logged, serving goes on'));
  await recordOperatorUrls(deps);
  // A signal that came during the start: nothing more starts (stop is already draining).
  if (stopping) return;
  workers = [startPushWorker(deps), startWhatsappWorker(deps), startWebhookWorker(deps)];
}
