// Text as a terminal shows it (issue 19 §3). What the database holds may predate the input rule
// (clean-text.ts) or come from another writer, and a terminal obeys what it prints: ESC and C1 CSI
// start escape sequences (move the cursor, erase a line, retitle the window), BEL rings, CR returns
// to the start of the line, bidi controls reorder what follows, and a line break inside a value
// starts a line the reader takes for the tool's own. So every such character is printed as its
// escape (`\x1b`, `\u202e`, `\n`) and stays visible; the layout's own line breaks are kept.

/**
 * C0 controls (tab and line breaks included), DEL, C1 controls; bidi embeddings, overrides and
 * isolates, LRM, RLM, ALM; zero-width space, word joiner and invisible operators, BOM; the Unicode
 * line and paragraph separators.
 */
const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u2028\u2029\u202A-\u202E\u2060-\u2069\uFEFF]/g;
const UNSAFE_BUT_LINE_FEED = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u2028\u2029\u202A-\u202E\u2060-\u2069\uFEFF]/g;

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function escapeOne(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One value (a name, a label, an error message): every unsafe character escaped, line breaks too. */
export const terminalValue = (s: string): string => s.replace(UNSAFE, escapeOne);

/** A whole text laid out in lines: the same, but its line feeds stay line feeds. */
export const terminalText = (s: string): string => s.replace(UNSAFE_BUT_LINE_FEED, escapeOne);
