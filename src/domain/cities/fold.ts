// Text folding for city and region names (SPEC 6): Unicode-fold (NFD, strip marks), case-fold,
// punctuation to spaces, spaces collapsed. "Bogotá, D.C." → "bogota d c".

const MARKS = /\p{M}+/gu;
const NOT_ALNUM = /[^\p{L}\p{N}]+/gu;

export function fold(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase().replace(NOT_ALNUM, ' ').trim();
}

/** Folded and without spaces: "Santa Fe" and "Santafé" meet here. */
export const foldCompact = (text: string): string => fold(text).replace(/ /g, '');
