import type { Command } from 'commander';
import { LIST_DEFAULT_LIMIT } from '../limits.ts';
import { config, globals, intOption, numberFlag, print, shown, withApp } from './output.ts';

// Use-cases load when a command runs, so `codrail --help` starts fast (SPEC 14).
const loadFulfillment = async () => ({
  ...(await import('../use-cases/fulfillment/fulfillment.use-case.ts')),
  ...(await import('../use-cases/fulfillment/fulfillment.schemas.ts')),
  ...(await import('../use-cases/validate.ts')),
  ...(await import('../use-cases/caller.ts')),
  ...(await import('../errors.ts')),
});
const loadSimulator = () => import('../use-cases/fulfillment/simulator.use-case.ts');

export function register(program: Command): void {
  const fulfillment = program.command('fulfillment').description('fulfillment push: list, replay, sync, connection (per-store credentials), products (platform catalog), and a local platform simulator');
  fulfillment
    .command('list')
    .description('outbox jobs (pushes and platform cancellations), most recently changed first, with counts per state')
    .option('--state <state>', 'queued | held | in_flight | failed | dead | done | cancelled')
    .option('--limit <n>', 'how many', intOption('limit'), LIST_DEFAULT_LIMIT)
    .action(async (o: { state?: string; limit: number }, cmd: Command) => {
      const result = await withApp(cmd, async (app) => {
        const f = await loadFulfillment();
        return f.listPushJobs(app, f.OPERATOR, f.parseWith(f.ListPushJobsInput, { ...(o.state !== undefined && { state: o.state }), limit: o.limit }));
      });
      const counts = Object.entries(result.counts).map(([s, n]) => `${s} ${n}`).join(' · ');
      const age = result.backlog.oldest_pending_age_s;
      const backlog = `backlog: ${result.backlog.pending} push${result.backlog.pending === 1 ? '' : 'es'} waiting${age === null ? '' : `, the oldest for ${age < 120 ? `${age} s` : `${Math.round(age / 60)} min`}`}`;
      const lines = result.jobs.map(
        (j) =>
          `#${j.order_number}  ${j.order_id}  [${shown(j.store_name)}]  ${j.action.padEnd(6)} ${j.state.padEnd(9)} attempts ${j.attempts}${j.remote_id ? `  → ${shown(j.remote_id)}` : ''}${j.last_error ? `  (${shown(j.last_error)})` : ''}${j.waiting_for ? `\n    waits for ${shown(j.waiting_for)}` : ''}`,
      );
      print(globals(cmd), result, [counts, backlog, ...(lines.length ? lines : ['(no jobs)'])].join('\n'));
    });
  fulfillment
    .command('replay')
    .description('re-queue failed or dead pushes; a replay looks the order up on the platform before creating it')
    .option('--order <id-or-number>', 'one order')
    .option('--store <id>', 'store of the order number')
    .option('--all-dead', 'every dead push')
    .action(async (o: { order?: string; store?: string; allDead?: boolean }, cmd: Command) => {
      const result = await withApp(cmd, async (app) => {
        const { replayPushes, ReplayPushesInput, parseWith, OPERATOR, AppError } = await loadFulfillment();
        if (!o.order === !o.allDead) throw new AppError('invalid_input', 'Give either --order ID or --all-dead', [{ field: 'order', message: 'one of --order or --all-dead' }]);
        return replayPushes(app, OPERATOR, parseWith(ReplayPushesInput, { ...(o.order !== undefined && { order_id: o.order }), ...(o.allDead && { all_dead: true }) }), o.store);
      });
      print(
        globals(cmd),
        result,
        result.replayed === 0
          ? `nothing re-queued: no failed or dead push ${o.order ? `for order ${o.order}` : 'is waiting'} (fulfillment list shows every state)`
          : `re-queued ${result.replayed} push${result.replayed === 1 ? '' : 'es'}: the worker of codrail serve sends them, looking each order up first`,
      );
    });
  fulfillment
    .command('sync')
    .description("pull the platform's status of every pushed, unfinished order (for platforms without webhooks)")
    .action(async (_o: unknown, cmd: Command) => {
      const result = await withApp(cmd, async (app) => (await loadFulfillment()).syncStatuses(app));
      print(globals(cmd), result, `checked ${result.checked}, changed ${result.changed}${result.errors.length ? `, ${result.errors.length} errors` : ''}`);
    });
  fulfillment
    .command('sim')
    .description('a local fulfillment platform with failure injection: --dialect generic (docs/fulfillment-platform.md) or dropi (Dropi\'s API, its lockouts and token expiry); lists what it got at GET /_sim/orders')
    .option('--dialect <name>', 'generic | dropi', 'generic')
    .option('--port <n>', 'listen port (0 = any)', '4100')
    .option('--host <host>', 'listen host', '127.0.0.1')
    .option('--fail-rate <f>', 'share of requests answered 500 without acting (0..1)', '0')
    .option('--timeout-rate <f>', 'share of creates that create the order but answer only after --late-ms (0..1)', '0')
    .option('--late-ms <n>', 'how late those answers come', '15000')
    .option('--latency-ms <n>', 'added to every answer', '0')
    .option('--rate-limit <n>', 'requests per second before 429 with Retry-After (0 = none)', '0')
    .option('--accept-token <token>', 'accept this bearer token as its own platform account (repeatable; default: CODRAIL_FULFILLMENT_TOKEN, or any token)', (t: string, all: string[] = []) => [...all, t])
    .option('--webhook-url <url>', "POST status changes there, signed with CODRAIL_FULFILLMENT_WEBHOOK_SECRET (e.g. http://127.0.0.1:3000/api/fulfillment/webhook); dropi: unsigned, to the connection's webhook_url")
    .option('--lockout <max/windowMs/lockMs>', 'dropi: more than max requests of one key within windowMs lock it for lockMs (429 Too Many Attempts), e.g. 10/1000/30000')
    .option('--expire-after <n>', 'dropi: each accepted key answers 401 Token is Expired after n requests')
    .action(async (o: { dialect: string; port: string; host: string; failRate: string; timeoutRate: string; lateMs: string; latencyMs: string; rateLimit: string; acceptToken?: string[]; webhookUrl?: string; lockout?: string; expireAfter?: string }, cmd: Command) => {
      const settings = config(globals(cmd));
      if (o.dialect !== 'generic' && o.dialect !== 'dropi') throw new Error(`--dialect must be generic or dropi, not ${o.dialect}`);
      if (o.dialect === 'dropi') {
        const lockout = o.lockout?.split('/').map((n, i) => numberFlag(['lockout max', 'lockout windowMs', 'lockout lockMs'][i]!, n, 86_400_000));
        if (lockout && lockout.length !== 3) throw new Error('--lockout is max/windowMs/lockMs, e.g. 10/1000/30000');
        const keys = o.acceptToken?.length ? o.acceptToken : undefined;
        const dropiSim = await (await loadSimulator()).runDropiSimulator({
          port: numberFlag('port', o.port, 65535),
          host: o.host,
          ...(keys ? { tokens: keys } : {}),
          failRate: numberFlag('fail-rate', o.failRate, 1, false),
          lostAnswerRate: numberFlag('timeout-rate', o.timeoutRate, 1, false),
          lateMs: numberFlag('late-ms', o.lateMs, 600_000),
          latencyMs: numberFlag('latency-ms', o.latencyMs, 600_000),
          ...(lockout ? { lockout: { max: lockout[0]!, windowMs: lockout[1]!, lockMs: lockout[2]! } } : {}),
          ...(o.expireAfter && keys?.[0] ? { expireAfter: { token: keys[0], requests: numberFlag('expire-after', o.expireAfter, 1_000_000) } } : {}),
          ...(o.webhookUrl ? { webhookUrl: o.webhookUrl } : {}),
          log: (line) => process.stderr.write(`${line}\n`),
        });
        print(
          globals(cmd),
          { url: dropiSim.url, dialect: 'dropi' },
          `Dropi simulator on ${dropiSim.url}  (what it received: curl ${dropiSim.url}/_sim/orders)\nrun codrail serve with --dropi-url ${dropiSim.url}, then: codrail fulfillment connection set STORE --platform dropi --api-token <key>`,
        );
        const stopDropi = () => void dropiSim.close().then(() => process.exit(0));
        process.once('SIGTERM', stopDropi);
        process.once('SIGINT', stopDropi);
        return;
      }
      const sim = await (await loadSimulator()).runSimulator({
        port: numberFlag('port', o.port, 65535),
        host: o.host,
        ...(o.acceptToken?.length ? { tokens: [...(settings.fulfillmentToken ? [settings.fulfillmentToken] : []), ...o.acceptToken] } : { token: settings.fulfillmentToken }),
        failRate: numberFlag('fail-rate', o.failRate, 1, false),
        timeoutRate: numberFlag('timeout-rate', o.timeoutRate, 1, false),
        lateMs: numberFlag('late-ms', o.lateMs, 600_000),
        latencyMs: numberFlag('latency-ms', o.latencyMs, 600_000),
        rateLimit: numberFlag('rate-limit', o.rateLimit, 1_000_000),
        ...(o.webhookUrl ? { webhookUrl: o.webhookUrl, webhookSecret: settings.fulfillmentWebhookSecret } : {}),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      print(globals(cmd), { url: sim.url }, `fulfillment simulator on ${sim.url}  (what it received: curl ${sim.url}/_sim/orders)\nrun codrail with CODRAIL_FULFILLMENT_URL=${sim.url}`);
      const stop = () => void sim.close().then(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
}
