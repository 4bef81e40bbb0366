// Text as codrail stores it (issue 13 §2), one rule for every surface (REST, MCP, CLI, the landing
// form): control characters and unpaired surrogates are refused with a field error (they are never
// what a person meant, and they break couriers' labels and CSV exports); bidirectional controls
// (U+202A-U+202E, U+2066-U+2069, LRM/RLM/ALM) are dropped, so "‮gnp.exe" cannot pose as another
// text; line breaks and tabs in a one-line field become a space; the result is Unicode NFC, so
// "Bogotá" typed with a combining accent equals the catalog's.

/** C0 controls but tab, line feed and carriage return; DEL; C1 controls. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
const LINE_BREAKS = /[\t\r\n]+/g;

export const hasControlCharacter = (s: string): boolean => CONTROL.test(s);

/** Whether every surrogate is paired (a lone one is not text: it cannot be encoded as UTF-8). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const isWellFormed = (s: string): boolean => !LONE_SURROGATE.test(s);

/** Bidi controls dropped, NFC; `oneLine` also turns tabs and line breaks into a space. */
export function normalizeText(s: string, oneLine: boolean): string {
  const text = s.replace(BIDI, '').normalize('NFC');
  return oneLine ? text.replace(LINE_BREAKS, ' ') : text;
}

/**
 * A message from outside that is kept, not refused (a buyer's WhatsApp reply, issue 25): the same
 * rules, but control characters are dropped and lone surrogates replaced instead of failing.
 */
export const cleanBuyerText = (s: string): string =>
  normalizeText(s.replace(new RegExp(CONTROL.source, 'g'), '').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD'), false).trim();
