// `codrail whatsapp …`: the hand-written `sim` (a local WhatsApp Cloud API stand-in) next to the
// commands derived from the WhatsApp operations (settings, preview, send, messages, cancel).
import type { Command } from 'commander';
import { AppError } from '../errors.ts';
import type { BuyerShares } from '../whatsapp/simulator.ts';
import { collect, config, globals, numberFlag, print, withApp } from './output.ts';

const loadSim = () => import('../use-cases/whatsapp/whatsapp-sim.use-case.ts');
const loadSenders = () => import('../use-cases/whatsapp/whatsapp-senders.use-case.ts');

type NumberView = { phone_number_id: string; account_id: string; account_name?: string; source: string; store_id: string | null; display_phone_number: string | null; verified_name: string | null };
const numberText = (n: NumberView) =>
  `${n.phone_number_id}  account ${n.account_id}${n.account_name ? ` (${n.account_name})` : ''}  ${n.source === 'operator' ? 'assigned by the operator: the server token sends from it' : `proven by store ${n.store_id}'s own credentials`}${n.display_phone_number ? `  ${n.display_phone_number}` : ''}${n.verified_name ? ` ${n.verified_name}` : ''}`;

/** `--business WABA_ID:TOKEN:PHONE_NUMBER_ID[,PHONE_NUMBER_ID…]` → a simulated business account. */
function businessSpec(text: string) {
  const m = /^(\d+):([^:\s]+):(\d+(?:,\d+)*)$/.exec(text.trim());
  if (!m) throw new AppError('invalid_input', `--business ${text}: expected WABA_ID:TOKEN:PHONE_NUMBER_ID[,PHONE_NUMBER_ID…]`, [{ field: 'business', message: 'WABA_ID:TOKEN:PHONE_NUMBER_ID[,…]' }]);
  return { id: m[1]!, token: m[2]!, numbers: m[3]!.split(',') };
}

/** `--buyers confirm=60,cancel=20,correct=10,silent=10` → the simulator's shares (any that are left out are 0). */
function buyerShares(spec: string, webhookUrl: string | undefined): BuyerShares {
  const bad = (message: string) => new AppError('invalid_input', `--buyers ${message}`, [{ field: 'buyers', message }]);
  if (!webhookUrl) throw bad('needs --webhook-url: buyers answer through the signed webhook');
  const shares: BuyerShares = { confirm: 0, cancel: 0, correct: 0, silent: 0 };
  for (const part of spec.split(',')) {
    const m = /^(confirm|cancel|correct|silent)=(\d{1,3}(?:\.\d+)?)$/.exec(part.trim());
    if (!m) throw bad(`takes confirm=N,cancel=N,correct=N,silent=N, not "${part}"`);
    shares[m[1] as keyof BuyerShares] = Number(m[2]);
  }
  if (shares.confirm + shares.cancel + shares.correct + shares.silent <= 0) throw bad('needs at least one share above 0');
  return shares;
}

export function register(program: Command): void {
  const whatsapp = program.command('whatsapp').description("WhatsApp notifications to buyers: a store's settings and templates, previews, sends, message statuses, and a local Cloud API simulator");
  whatsapp
    .command('sim')
    .description('a local WhatsApp Cloud API stand-in (POST /{phone-number-id}/messages), with failure injection; lists what it got at GET /_sim/messages')
    .option('--port <n>', 'listen port (0 = any)', '4200')
    .option('--host <host>', 'listen host', '127.0.0.1')
    .option('--fail-rate <f>', 'share of sends answered 500 without accepting (0..1)', '0')
    .option('--latency-ms <n>', 'added to every answer', '0')
    .option('--webhook-url <url>', 'POST message statuses (sent, delivered) there, e.g. http://127.0.0.1:3000/api/whatsapp/webhook')
    .option('--app-secret <s>', 'signs the status webhooks (X-Hub-Signature-256); default CODRAIL_WHATSAPP_APP_SECRET')
    .option('--business <spec>', "a business account with its own token and numbers, WABA_ID:TOKEN:PHONE_NUMBER_ID[,…] (repeatable): that token sends only from those numbers and lists them at GET /{WABA_ID}/phone_numbers", collect, [])
    .option('--buyers <shares>', 'buyers answer confirmation requests through the webhook, e.g. confirm=60,cancel=20,correct=10,silent=10 (needs --webhook-url)')
    .action(async (o: { port: string; host: string; failRate: string; latencyMs: string; webhookUrl?: string; appSecret?: string; business: string[]; buyers?: string }, cmd: Command) => {
      const settings = config(globals(cmd));
      const appSecret = o.appSecret ?? settings.whatsappAppSecret;
      if (o.webhookUrl && !appSecret) throw new AppError('invalid_input', '--webhook-url needs --app-secret or CODRAIL_WHATSAPP_APP_SECRET (codrail refuses unsigned webhooks)', [{ field: 'app-secret', message: 'required with --webhook-url' }]);
      const sim = await (await loadSim()).runWhatsappSim({
        port: numberFlag('port', o.port, 65535),
        host: o.host,
        failRate: numberFlag('fail-rate', o.failRate, 1, false),
        latencyMs: numberFlag('latency-ms', o.latencyMs, 600_000),
        ...(settings.whatsappToken ? { token: settings.whatsappToken } : {}),
        businesses: o.business.map(businessSpec),
        ...(o.webhookUrl && appSecret ? { webhookUrl: o.webhookUrl, appSecret } : {}),
        ...(o.buyers !== undefined && { buyers: buyerShares(o.buyers, o.webhookUrl) }),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      print(globals(cmd), { url: sim.url }, `whatsapp simulator on ${sim.url}  (what it received: curl ${sim.url}/_sim/messages)\nrun codrail with CODRAIL_WHATSAPP_URL=${sim.url}`);
      const stop = () => void sim.close().then(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });

  const numbers = whatsapp.command('numbers').description("which account each WhatsApp phone-number id belongs to: the server's token (CODRAIL_WHATSAPP_TOKEN) sends only from numbers assigned here");
  numbers
    .command('assign')
    .description('let an account send from a number with the server token (a number belongs to one account)')
    .argument('<phone_number_id>', 'the Cloud API phone-number id')
    .requiredOption('--account <id>', 'the account that may send from it')
    .action(async (id: string, o: { account: string }, cmd: Command) => {
      const n = await withApp(cmd, async (app) => (await loadSenders()).assignWhatsappNumber(app, { phoneNumberId: id, accountId: o.account }));
      print(globals(cmd), n, numberText(n));
    });
  numbers
    .command('unassign')
    .description('no account sends from the number any more (its queued messages fail with the reason)')
    .argument('<phone_number_id>', 'the Cloud API phone-number id')
    .action(async (id: string, _o, cmd: Command) => {
      const n = await withApp(cmd, async (app) => (await loadSenders()).unassignWhatsappNumber(app, id));
      print(globals(cmd), n, `${n.phone_number_id} unassigned from account ${n.account_id}`);
    });
  numbers
    .command('list')
    .description("numbers and their accounts: assigned by the operator, or proven by a store's own credentials")
    .option('--account <id>', 'only this account')
    .action(async (o: { account?: string }, cmd: Command) => {
      const rows = await withApp(cmd, async (app) => (await loadSenders()).listNumbers(app, o.account));
      print(globals(cmd), rows, rows.length ? rows.map(numberText).join('\n') : '(no numbers: assign one with codrail whatsapp numbers assign PHONE_NUMBER_ID --account ID)');
    });
}
