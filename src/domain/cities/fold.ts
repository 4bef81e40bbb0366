// Text folding for city and region names (SPEC 6): Unicode-fold (NFD, strip marks), case-fold,
// punctuation to spaces, spaces collapsed. "Bogotá, D.C." → "bogota d c".

const MARKS = /\p{M}+/gu;
const NOT_ALNUM = /[^\p{L}\p{N}]+/gu;
const NOT_ASCII_ALNUM = /[^a-z0-9]+/g;

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

export function fold(text: string): string {
  // Most buyers type plain ASCII: skip the Unicode normalization they do not need (hot path).
  if (isAscii(text)) return text.toLowerCase().replace(NOT_ASCII_ALNUM, ' ').trim();
  return text.normalize('NFD').replace(MARKS, '').toLowerCase().replace(NOT_ALNUM, ' ').trim();
}

/** Folded and without spaces: "Santa Fe" and "Santafé" meet here. */
export const foldCompact = (text: string): string => fold(text).replace(/ /g, '');
