// Fail points (issue 20): named places in the outbox attempts (and one in its claim) where a test can make the real worker
// fail exactly there — throw, pause, or kill its own process — to prove that a step which reached
// the outside world is never repeated blind. Set with CODRAIL_FAILPOINTS (read by config.ts only),
// e.g. `push.after_answer=kill` or `push.during_record=error*3,cancel.after_answer=delay:2000`.
// Unset in production: every hit is then one Map look-up.

/** Every fail point, in the order of an attempt. */
export const FAILPOINTS = [
  /** The push's intent is recorded; the create request has not left. */
  'push.before_request',
  /** The platform answered the create; nothing of it is recorded yet. */
  'push.after_answer',
  /** Inside the transaction that records the push, after its writes, before the commit. */
  'push.during_record',
  'cancel.before_request',
  'cancel.after_answer',
  'cancel.during_record',
  /** The Cloud API accepted the message; nothing of it is recorded yet. */
  'whatsapp.after_answer',
  /** Any outbox's claim: the due jobs of uncapped destinations are claimed (committed); the capped destinations' jobs and the circuits' probes are not yet. */
  'outbox.claim_held',
] as const;

export type FailpointName = (typeof FAILPOINTS)[number];

export type FailAction = { kind: 'error' } | { kind: 'kill' } | { kind: 'delay'; ms: number };

interface Armed {
  action: FailAction;
  /** Hits left that fire; Infinity when no count was given. */
  left: number;
}

/** Raised by an `error` fail point: an internal error, as a failing database or a bug would raise. */
export class FailpointError extends Error {
  override readonly name = 'FailpointError';
}

const KNOWN: ReadonlySet<string> = new Set(FAILPOINTS);

/** `name=error`, `name=kill`, `name=delay:MS`, each optionally `*N` (the first N hits only); comma-separated. */
export function parseFailpoints(spec: string | undefined): Map<FailpointName, Armed> | string {
  const armed = new Map<FailpointName, Armed>();
  for (const part of (spec ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^([a-z_.]+)=(error|kill|delay:(\d{1,7}))(?:\*(\d{1,6}))?$/.exec(part);
    if (!m) return `${part} is not name=error|kill|delay:MS[*N]`;
    if (!KNOWN.has(m[1]!)) return `${m[1]} is not a fail point (${FAILPOINTS.join(', ')})`;
    const action: FailAction = m[2] === 'error' ? { kind: 'error' } : m[2] === 'kill' ? { kind: 'kill' } : { kind: 'delay', ms: Number(m[3]) };
    armed.set(m[1] as FailpointName, { action, left: m[4] === undefined ? Infinity : Number(m[4]) });
  }
  return armed;
}

export class Failpoints {
  readonly #armed: Map<FailpointName, Armed>;

  constructor(spec?: string) {
    const parsed = parseFailpoints(spec);
    if (typeof parsed === 'string') throw new Error(`CODRAIL_FAILPOINTS: ${parsed}`);
    this.#armed = parsed;
  }

  /** Passes, or fails there as armed. */
  async hit(name: FailpointName): Promise<void> {
    const armed = this.#armed.get(name);
    if (!armed || armed.left <= 0) return;
    armed.left--;
    const { action } = armed;
    if (action.kind === 'delay') return new Promise((resolve) => setTimeout(resolve, action.ms));
    // As a power cut would: no cleanup, no drain, no final write.
    if (action.kind === 'kill') process.kill(process.pid, 'SIGKILL');
    throw new FailpointError(`fail point ${name}`);
  }
}
