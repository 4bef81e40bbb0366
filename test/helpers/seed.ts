// The seed of this run, for everything random in the tests: the simulators' injected failures and
// fast-check's generated inputs. A run repeats exactly; a failure names its seed, and
// CODRAIL_TEST_SEED=<n> replays it (or tries another draw on purpose).
import { seeded } from './wait.ts';

const override = process.env.CODRAIL_TEST_SEED;
if (override !== undefined && !/^-?\d{1,10}$/.test(override)) throw new Error(`CODRAIL_TEST_SEED must be an integer, not ${JSON.stringify(override)}`);

/** CODRAIL_TEST_SEED when set, else the call site's fixed seed. */
export function testSeed(fixed: number): number {
  return override === undefined ? fixed : Number(override) | 0;
}

/** How to run again with this seed, for failure messages. */
export const replayHint = (seed: number) => `seed ${seed}: replay with CODRAIL_TEST_SEED=${seed}`;

/**
 * Runs `body` with a generator seeded by `testSeed(fixed)`; when it fails, the error names the seed
 * (in its message and stack, which is what the test reporter prints).
 */
export function withSeed<T>(fixed: number, body: (random: () => number, seed: number) => Promise<T>): Promise<T> {
  const seed = testSeed(fixed);
  return underSeed(seed, () => body(seeded(seed), seed));
}

/** Runs `body` (a test that depends on draws seeded with `seed` elsewhere, e.g. in `before`); a failure names the seed. */
export async function underSeed<T>(seed: number, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw namingSeed(error, seed);
  }
}

/** Adds the seed to an error's message and stack. */
export function namingSeed(error: unknown, seed: number): unknown {
  if (!(error instanceof Error)) return new Error(`${String(error)} (${replayHint(seed)})`, { cause: error });
  const before = error.message;
  error.message = `${before}\n(${replayHint(seed)})`;
  if (error.stack?.includes(before)) error.stack = error.stack.replace(before, error.message);
  return error;
}

/** fast-check parameters of this run: a fixed seed, printed by fast-check itself when a property fails. */
export const fcRun = <P extends object>(fixed: number, params: P = {} as P): P & { seed: number } => ({ ...params, seed: testSeed(fixed) });
