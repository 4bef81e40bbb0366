// Name normalization for city and region matching (SPEC 6): the steps a careful operator does in
// their head before comparing a buyer's text with the catalog. Every function here is pure and
// cheap; the matcher applies them once per catalog name at build time and once per order.
import { fold } from './fold.ts';

/**
 * Abbreviations buyers really type, expanded token by token ("Sta Marta", "Pto Boyacá", "Cd Juárez").
 * A Map: the tokens are the buyer's words, and an object would answer "constructor" with Object's
 * own members (issue 19 §5).
 */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['sta', 'santa'],
  ['sto', 'santo'],
  ['sn', 'san'],
  ['pto', 'puerto'],
  ['cd', 'ciudad'],
  ['cdad', 'ciudad'],
  ['gral', 'general'],
  ['grl', 'general'],
  ['cnel', 'coronel'],
  ['mcal', 'mariscal'],
  ['dr', 'doctor'],
  ['tte', 'teniente'],
  ['pdte', 'presidente'],
  ['pte', 'presidente'],
  ['ing', 'ingeniero'],
  ['fco', 'francisco'],
  ['nva', 'nueva'],
  ['nvo', 'nuevo'],
  ['stgo', 'santiago'],
  ['sgo', 'santiago'],
  ['cap', 'capitan'],
  ['alc', 'alcaldia'],
  ['deleg', 'delegacion'],
  ['mpio', 'municipio'],
  ['mun', 'municipio'],
  ['depto', 'departamento'],
  ['dpto', 'departamento'],
  ['dep', 'departamento'],
  ['edo', 'estado'],
  ['prov', 'provincia'],
  ['dist', 'distrito'],
  ['cant', 'canton'],
  ['cuidad', 'ciudad'],
  ['crnel', 'coronel'],
  ['col', 'colonia'],
  ['gtz', 'gutierrez'],
]);

/** Leading words that only say what kind of place follows ("Municipio de Envigado", "Cantón Quevedo"). */
const LEADING_KIND = new Set([
  'municipio',
  'ciudad',
  'distrito',
  'canton',
  'departamento',
  'provincia',
  'estado',
  'alcaldia',
  'delegacion',
  'localidad',
  'region',
  'parroquia',
  'corregimiento',
  'comarca',
  'heroica',
  // Quito is "Distrito Metropolitano", written "DM Quito" or "D.M. Quito".
  'metropolitano',
  'dm',
  'dmq',
  // "Distrito Turístico de Cartagena", "Distrito Especial de Buenaventura".
  'turistico',
  'especial',
  // "Del. Benito Juárez": the old delegaciones of Mexico City (a name never starts with "del" alone).
  'del',
  // What kind of neighbourhood follows ("Barrio Jara", "Colonia Roma"): tried after the text as written.
  'barrio',
  'colonia',
  'sector',
  'urbanizacion',
  'fraccionamiento',
  'vereda',
]);
const JOINERS = new Set(['de', 'del', 'la', 'las', 'los', 'el']);

/**
 * Trailing words that add nothing once the place is known: the country's own name and the kind of
 * district a city is: capital ("Bogotá D.C."), metropolitan ("Quito DM"), or Colombia's special
 * districts ("Barranquilla D.E.I.P.", "Cartagena D.T. y C.", "Santa Marta D.T.C.H.", "Buenaventura D.E.").
 */
const TRAILING_NOISE: readonly (readonly string[])[] = [
  ['dc'],
  ['distrito', 'capital'],
  ['dm'],
  ['dmq'],
  ['distrito', 'metropolitano'],
  ['de'],
  ['dt'],
  ['dtc'],
  ['dtyc'],
  ['dtch'],
  ['detc'],
  ['deip'],
  ['dei'],
  ['distrito', 'especial'],
  ['distrito', 'turistico'],
  ['distrito', 'turistico', 'y', 'cultural'],
  ['distrito', 'especial', 'industrial', 'y', 'portuario'],
  ['distrito', 'turistico', 'cultural', 'e', 'historico'],
];

/** Country names a buyer appends ("Envigado, Colombia"), per catalog country. */
export const COUNTRY_WORDS: ReadonlyMap<string, readonly (readonly string[])[]> = new Map<string, readonly (readonly string[])[]>([
  ['CO', [['colombia']]],
  ['MX', [['mexico'], ['mex'], ['mx']]],
  ['EC', [['ecuador'], ['ec']]],
  ['PA', [['panama'], ['republica', 'de', 'panama'], ['rep', 'de', 'panama']]],
  ['PY', [['paraguay'], ['py']]],
  ['PE', [['peru'], ['pe']]],
]);

export function tokens(text: string): string[] {
  const folded = fold(text);
  if (folded === '') return [];
  return joinInitials(folded.split(' ')).map((t) => ABBREVIATIONS.get(t) ?? t);
}

/**
 * Runs of single letters are one dotted abbreviation: "D.M." and "DM", "D.T. y C." and "DTYC" are
 * the same word. Compact keys do not change (they join the words anyway); word-level rules do.
 */
function joinInitials(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    let j = i;
    while (j < words.length && words[j]!.length === 1) j++;
    if (j - i >= 2) {
      out.push(words.slice(i, j).join(''));
      i = j - 1;
    } else out.push(words[i]!);
  }
  return out;
}

const endsWith = (words: readonly string[], tail: readonly string[]) =>
  words.length > tail.length && tail.every((t, i) => words[words.length - tail.length + i] === t);

const trailingByCountry = new Map<string, readonly (readonly string[])[]>();

/** The trailing noise of a country's texts, longest first ("Rep. de Panamá" goes as a whole, not as "Panamá" leaving "Rep. de"); built once (hot path). */
function trailingNoise(country = ''): readonly (readonly string[])[] {
  let list = trailingByCountry.get(country);
  if (!list) {
    list = [...TRAILING_NOISE, ...(COUNTRY_WORDS.get(country) ?? [])].sort((a, b) => b.length - a.length);
    trailingByCountry.set(country, list);
  }
  return list;
}

/** Drops the kind-of-place prefix and trailing noise, never emptying the name. */
export function stripFiller(words: readonly string[], country?: string): string[] {
  let out = [...words];
  while (out.length > 1 && LEADING_KIND.has(out[0]!)) {
    let i = 1;
    while (i < out.length - 1 && JOINERS.has(out[i]!)) i++;
    out = out.slice(i);
  }
  const trailing = trailingNoise(country);
  for (let changed = true; changed; ) {
    changed = false;
    for (const tail of trailing) {
      if (endsWith(out, tail)) {
        out = out.slice(0, out.length - tail.length);
        changed = true;
      }
    }
  }
  return out;
}

export const compact = (words: readonly string[]): string => words.join('');

/** Where the place name ends and contact details or directions begin ("Bello cel 300…", "Capiatá km 20"). */
const CONTACT_OR_ROAD = new Set(['cel', 'celular', 'cell', 'tel', 'telf', 'telefono', 'movil', 'whatsapp', 'whats', 'wsp', 'km', 'kilometro']);
/** Where a neighbourhood or a delivery hint follows the town ("Manta barrio Los Esteros", "David cerca del parque"). */
const SUB_ADDRESS = new Set(['barrio', 'colonia', 'sector', 'urbanizacion', 'fraccionamiento', 'fracc', 'conjunto', 'vereda', 'cdla', 'ciudadela', 'cerca', 'frente', 'junto', 'detras', 'casco', 'entregar', 'entrega', 'llamar', 'horario']);
const PART_OF_TOWN = new Set(['norte', 'sur', 'centro', 'oriente', 'occidente', 'este', 'oeste']);
/** A street address is not a town with extras: "Av. Vallarta 3233" must not become Puerto Vallarta. */
const STREET = new Set(['av', 'avenida', 'calle', 'cll', 'cl', 'carrera', 'cra', 'kr', 'cr', 'diagonal', 'dg', 'transversal', 'tv', 'mz', 'manzana', 'lote', 'casa', 'int', 'interior', 'apto', 'apartamento', 'piso', 'edificio', 'torre', 'bloque']);

/**
 * Readings of a city text without what follows the name: the words before any phone number,
 * contact word or road marker, then the same without a trailing part of town ("Quito norte
 * 0991234567" → "quito norte", "quito"). None when there is nothing to drop or the text is a street address.
 */
export function withoutContactDetails(words: readonly string[]): string[][] {
  if (STREET.has(words[0]!)) return [];
  const cut = words.findIndex((w, i) => CONTACT_OR_ROAD.has(w) || /^\d{3,}$/.test(w) || (i > 0 && (SUB_ADDRESS.has(w) || STREET.has(w))));
  const kept = cut < 0 ? [...words] : words.slice(0, cut);
  const out: string[][] = [];
  if (kept.length > 0 && kept.length < words.length) out.push(kept);
  if (kept.length > 1 && PART_OF_TOWN.has(kept[kept.length - 1]!)) out.push(kept.slice(0, -1));
  return out;
}

// Spanish spelling that sounds the same, in one pass over a compact folded key: b/v, s/z/c(e,i),
// k/c/qu, j/g(e,i), hard gu(e,i) = g, silent h (not in ch), w/u, nb = mb, a final y = i, and
// doubled letters ("Medelin", "Vilavisencio", "Sogamozo", "Embigado" meet their catalog names).
const soft = (x: string | undefined) => x === 'e' || x === 'i';

export function phonetic(key: string): string {
  let out = '';
  let last = '';
  const emit = (c: string) => {
    if (c !== last) out += c;
    last = c;
  };
  for (let i = 0; i < key.length; i++) {
    const c = key[i]!;
    const next = key[i + 1];
    switch (c) {
      case 'h':
        if (key[i - 1] === 'c') emit('h');
        break;
      case 'c':
        emit(next === 'h' ? 'c' : soft(next) ? 's' : 'k');
        break;
      case 'q':
        emit('k');
        if (next === 'u' && soft(key[i + 2])) i++;
        break;
      case 'g':
        if (next === 'u' && soft(key[i + 2])) {
          emit('g');
          i++;
        } else emit(soft(next) ? 'j' : 'g');
        break;
      case 'z':
        emit('s');
        break;
      case 'v':
        emit('b');
        break;
      case 'w':
        emit('u');
        break;
      case 'n':
        emit(next === 'b' || next === 'v' ? 'm' : 'n');
        break;
      case 'y':
        emit(i === key.length - 1 ? 'i' : 'y');
        break;
      default:
        emit(c);
    }
  }
  return out;
}

const ARTICLES = new Set(['el', 'la', 'los', 'las']);

/**
 * Shorter names people use for a long official one: without the leading article ("El Santuario" →
 * "Santuario") and the part before "de"/"del" ("Ecatepec de Morelos" → "Ecatepec", "Manaure Balcón
 * del Cesar" → "Manaure"). The matcher ranks these below real names and curated aliases.
 */
export function shortForms(words: readonly string[]): string[][] {
  const out: string[][] = [];
  const base = stripFiller(words);
  const article = base.length > 1 && ARTICLES.has(base[0]!);
  if (article) out.push(base.slice(1));
  // "Nuevo Casas Grandes" is "Casas Grandes" to many: a short form, so the old town of that name in
  // the same region becomes a guess between two.
  if (base.length > 2 && (base[0] === 'nuevo' || base[0] === 'nueva')) out.push(base.slice(1));
  const cut = base.findIndex((w, i) => i > (article ? 1 : 0) && (w === 'de' || w === 'del'));
  if (cut > 0 && base.length - cut > 1) {
    const head = base.slice(0, cut);
    if (compact(head).length >= 4 && !LEADING_KIND.has(head[head.length - 1]!)) {
      out.push(head);
      if (article && head.length > 1) out.push(head.slice(1));
    }
  }
  return out;
}
