// `codrail whatsapp sim`: a local WhatsApp Cloud API stand-in, so sends, retries and status webhooks
// can be tried without a Meta account. The CLI maps its flags onto the options.
import { startWhatsappSim, type WhatsappSim, type WhatsappSimOptions } from '../../whatsapp/simulator.ts';

export type { WhatsappSim, WhatsappSimOptions };

export function runWhatsappSim(options: WhatsappSimOptions): Promise<WhatsappSim> {
  return startWhatsappSim(options);
}
