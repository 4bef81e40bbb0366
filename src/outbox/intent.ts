// Intent before effect (SPEC 7; issue 20): the one rule of every outbox for a request that acts on
// the outside world (a platform create or cancel, a WhatsApp send, a webhook delivery).
//   1. Before the request leaves, the job durably records that it may act: its intent.
//   2. Only what is known resolves an intent: the outcome recorded, a failure of that very request
//      that says it did not act (it never left, or the other side refused it), or a look-up showing
//      that nothing was made.
//   3. Anything else after the request left — their failure or ours, a lost lease, a crash, a
//      transaction that cannot commit — leaves the intent standing, and the next try finds out
//      before it acts again (a push looks the order up by reference; a cancel reads the order's
//      status); where nothing can be looked up (a WhatsApp message), it does not act again at all.
// A step that reached the outside world is never repeated blind.
import { classifyFailure } from './attempt-failure.ts';

/** What a settled try does to the job's count of intents with no known outcome. */
export type IntentChange =
  /** Unchanged: this try's request may have acted, or this try learnt nothing. */
  | 'keep'
  /** This try's own intent is resolved: its request did not act. */
  | 'resolve_own'
  /** Every intent is resolved: a look-up showed nothing was made, and this try made nothing. */
  | 'none_exist';

export interface TryRecord {
  /** This try recorded an intent: its request may have left. */
  intentRecorded: boolean;
  /** The error of the request itself, when it failed (undefined when it succeeded or never left). */
  effectError?: unknown;
  /** A look-up in this try found nothing made by earlier tries. */
  lookedUpNothing: boolean;
}

/** Whether a failed request is known not to have acted: it never left, or the other side refused it. */
export const didNotAct = (effectError: unknown): boolean => classifyFailure(effectError).kind !== 'unknown';

/** The intent change after a try that did not record its outcome. */
export function intentAfter(t: TryRecord): IntentChange {
  const ownResolved = t.intentRecorded && t.effectError !== undefined && didNotAct(t.effectError);
  if (t.intentRecorded && !ownResolved) return 'keep';
  if (t.lookedUpNothing) return 'none_exist';
  return ownResolved ? 'resolve_own' : 'keep';
}
