// `codrail whatsapp …`: the hand-written `sim` (a local WhatsApp Cloud API stand-in) next to the
// commands derived from the WhatsApp operations (settings, preview, send, messages, cancel).
import type { Command } from 'commander';
import { AppError } from '../errors.ts';
import { config, globals, numberFlag, print } from './output.ts';

const loadSim = () => import('../use-cases/whatsapp/whatsapp-sim.use-case.ts');

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
    .action(async (o: { port: string; host: string; failRate: string; latencyMs: string; webhookUrl?: string; appSecret?: string }, cmd: Command) => {
      const settings = config(globals(cmd));
      const appSecret = o.appSecret ?? settings.whatsappAppSecret;
      if (o.webhookUrl && !appSecret) throw new AppError('invalid_input', '--webhook-url needs --app-secret or CODRAIL_WHATSAPP_APP_SECRET (codrail refuses unsigned webhooks)', [{ field: 'app-secret', message: 'required with --webhook-url' }]);
      const sim = await (await loadSim()).runWhatsappSim({
        port: numberFlag('port', o.port, 65535),
        host: o.host,
        failRate: numberFlag('fail-rate', o.failRate, 1, false),
        latencyMs: numberFlag('latency-ms', o.latencyMs, 600_000),
        ...(settings.whatsappToken ? { token: settings.whatsappToken } : {}),
        ...(o.webhookUrl && appSecret ? { webhookUrl: o.webhookUrl, appSecret } : {}),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      print(globals(cmd), { url: sim.url }, `whatsapp simulator on ${sim.url}  (what it received: curl ${sim.url}/_sim/messages)\nrun codrail with CODRAIL_WHATSAPP_URL=${sim.url}`);
      const stop = () => void sim.close().then(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
}
