// Anti-bot heuristics (SPEC 4.1 step 9). The reason is for the log and the order events only:
// the client always gets the generic "Order rejected".

export type BotReason = 'honeypot' | 'blocked_phone' | 'blocked_ip' | 'name_not_words' | 'address_not_words';

const LETTER = /\p{L}/u;

/** Text that is not words: no letter at all, or one character repeated ("aaaa", "....."). */
export function isNotWords(text: string): boolean {
  const compact = text.replace(/\s+/gu, '');
  if (!LETTER.test(compact)) return true;
  const first = compact[0]!.toLowerCase();
  return [...compact.toLowerCase()].every((c) => c === first);
}

export function honeypotFilled(website: unknown): boolean {
  if (website === undefined || website === null) return false;
  if (typeof website === 'string') return website.trim() !== '';
  return true;
}

export function botReason(input: {
  website: unknown;
  nombre: string;
  direccion: string;
  phoneBlocked: boolean;
  ipBlocked: boolean;
}): BotReason | undefined {
  if (honeypotFilled(input.website)) return 'honeypot';
  if (input.phoneBlocked) return 'blocked_phone';
  if (input.ipBlocked) return 'blocked_ip';
  if (isNotWords(input.nombre)) return 'name_not_words';
  if (isNotWords(input.direccion)) return 'address_not_words';
  return undefined;
}
