// `codrail fulfillment sim`: a local platform speaking docs/fulfillment-platform.md, so pushes,
// retries and webhooks can be tried without a real platform account. The CLI maps its flags
// (--port, --fail-rate, --latency-ms, --timeout-rate, --rate-limit, --webhook-url) and the
// configured webhook secret onto the options.
import { startSimulator, type Simulator, type SimulatorOptions } from '../../fulfillment/simulator.ts';

export type { Simulator, SimulatorOptions };

export function runSimulator(options: SimulatorOptions): Promise<Simulator> {
  return startSimulator(options);
}
