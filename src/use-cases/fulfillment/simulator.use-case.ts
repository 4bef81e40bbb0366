// `codrail fulfillment sim`: a local platform, so pushes, retries and webhooks can be tried without a
// real platform account. `--dialect generic` speaks docs/fulfillment-platform.md; `--dialect dropi`
// speaks Dropi and misbehaves like it (issue 22 §6: no idempotency, isSuccess:false messages, token
// expiry, "Too Many Attempts" lockouts, orders deleted by the seller, unsigned webhooks). The CLI
// maps its flags and the configured webhook secret onto the options.
import { startSimulator, type Simulator, type SimulatorOptions } from '../../platforms/generic/simulator.ts';
import { startDropiSimulator, type DropiSimOptions, type DropiSimulator } from '../../platforms/dropi/simulator.ts';

export type { Simulator, SimulatorOptions, DropiSimOptions, DropiSimulator };

export function runSimulator(options: SimulatorOptions): Promise<Simulator> {
  return startSimulator(options);
}

export function runDropiSimulator(options: DropiSimOptions): Promise<DropiSimulator> {
  return startDropiSimulator(options);
}
