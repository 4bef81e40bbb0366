// src/domain/cities: fold.ts, normalize.ts, edit-distance.ts and matcher.ts, on a small catalog
// built for each rule (the real catalogs are measured by test/use-cases/city-accuracy.test.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fold, foldCompact } from '../../src/domain/cities/fold.ts';
import { phonetic, stripFiller, tokens } from '../../src/domain/cities/normalize.ts';
import { deletions, editDistance } from '../../src/domain/cities/edit-distance.ts';
import { CityMatcher, type AliasTable, type CatalogEntry } from '../../src/domain/cities/matcher.ts';

const CATALOG: CatalogEntry[] = [
  { region: 'Bogotá, D.C.', city: 'Bogotá, D.C.', code: '11001' },
  { region: 'Antioquia', city: 'Medellín', code: '05001' },
  { region: 'Antioquia', city: 'Envigado', code: '05266' },
  { region: 'Antioquia', city: 'La Unión', code: '05400' },
  { region: 'Antioquia', city: 'Girardota', code: '05308' },
  { region: 'Antioquia', city: 'Ciudad Bolívar', code: '05101' },
  { region: 'Nariño', city: 'La Unión', code: '52399' },
  { region: 'Nariño', city: 'Pasto', code: null },
  { region: 'Cundinamarca', city: 'Girardot', code: '25307' },
  { region: 'Cundinamarca', city: 'Soacha', code: '25754' },
  { region: 'Meta', city: 'Villavicencio', code: '50001' },
  { region: 'Valle del Cauca', city: 'Santiago de Cali', code: '76001' },
  { region: 'Valle del Cauca', city: 'Tuluá', code: '76834' },
  { region: 'Atlántico', city: 'Puerto Colombia', code: '08573' },
  { region: 'Huila', city: 'Colombia', code: '41206' },
  { region: 'Huila', city: 'Pitalito', code: '41551' },
  { region: 'Santander', city: 'Barrancabermeja', code: '68081' },
  { region: 'Magdalena', city: 'Santa Marta', code: '47001' },
];

const ALIASES: AliasTable = {
  regions: { 'Valle del Cauca': ['Valle'], 'Bogotá, D.C.': ['Distrito Capital'] },
  cities: { 'Valle del Cauca': { 'Santiago de Cali': ['Cali'] }, 'Bogotá, D.C.': { 'Bogotá, D.C.': ['Santafé de Bogotá'] } },
  places: { 'Bogotá, D.C.': { 'Bogotá, D.C.': ['Chapinero', 'Kennedy'] }, Antioquia: { Medellín: ['El Poblado', 'Pasto'] } },
};

const matcher = new CityMatcher(CATALOG, { country: 'CO', aliases: ALIASES });
const decide = (departamento: string, ciudad: string) => matcher.match(departamento, ciudad);
const where = (d: { region?: string | undefined; city?: string | undefined }) => `${d.city} / ${d.region}`;

describe('fold and normalize', () => {
  test('fold strips accents, lower-cases and turns punctuation into single spaces', () => {
    assert.equal(fold('Bogotá, D.C.'), 'bogota d c');
    assert.equal(fold('  MEDELLÍN  '), 'medellin');
    assert.equal(fold('San José de Cúcuta'), 'san jose de cucuta');
    assert.equal(fold('Nariño'), 'narino');
  });

  test('foldCompact makes "Bogotá, D.C.", "BOGOTA D.C." and "bogota dc" the same key', () => {
    assert.equal(foldCompact('Bogotá, D.C.'), 'bogotadc');
    assert.equal(foldCompact('BOGOTA D.C.'), 'bogotadc');
    assert.equal(foldCompact('bogota dc'), 'bogotadc');
    assert.equal(foldCompact('Santa Fe'), foldCompact('Santafé'));
  });

  test('tokens expand the abbreviations buyers type, word by word', () => {
    assert.deepEqual(tokens('Sta. Marta'), ['santa', 'marta']);
    assert.deepEqual(tokens('Pto Boyacá'), ['puerto', 'boyaca']);
    assert.deepEqual(tokens('Cd. Juárez'), ['ciudad', 'juarez']);
    assert.deepEqual(tokens('Cnel. Oviedo'), ['coronel', 'oviedo']);
    assert.deepEqual(tokens('stadium'), ['stadium']);
  });

  test('tokens keep words that name members of Object.prototype as words (issue 19 §5)', () => {
    assert.deepEqual(tokens('constructor'), ['constructor']);
    assert.deepEqual(tokens('toString'), ['tostring']);
    assert.deepEqual(tokens('__proto__'), ['proto']);
    assert.deepEqual(tokens('hasOwnProperty valueOf'), ['hasownproperty', 'valueof']);
    for (const word of ['constructor', 'toString', '__proto__', 'hasOwnProperty valueOf', '__defineGetter__']) assert.ok(tokens(word).every((t) => typeof t === 'string'), word);
  });

  test('a matcher reads those words as unknown places, and a known city beside one is still found', () => {
    const matcher = new CityMatcher(CATALOG, { country: 'CO' });
    for (const word of ['constructor', 'toString', '__proto__', 'hasOwnProperty valueOf']) {
      assert.equal(matcher.match(word, word).confident, false, word);
      assert.equal(matcher.match('Antioquia', word).confident, false, word);
      assert.equal(where(matcher.match(word, 'Medellín')), 'Medellín / Antioquia', word);
    }
  });

  test('tokens read dotted initials as one word, so "D.M." and "DM" are the same', () => {
    assert.deepEqual(tokens('D.M. Quito'), ['dm', 'quito']);
    assert.deepEqual(tokens('Cartagena D.T. y C.'), ['cartagena', 'dtyc']);
    assert.deepEqual(tokens('Gustavo A. Madero'), ['gustavo', 'a', 'madero']);
  });

  test('stripFiller drops a kind-of-place prefix, a trailing D.C. and the country name, never the whole name', () => {
    assert.deepEqual(stripFiller(tokens('Municipio de Envigado')), ['envigado']);
    assert.deepEqual(stripFiller(tokens('Cantón Quevedo')), ['quevedo']);
    assert.deepEqual(stripFiller(tokens('Bogotá D.C.')), ['bogota']);
    assert.deepEqual(stripFiller(tokens('Envigado Colombia'), 'CO'), ['envigado']);
    assert.deepEqual(stripFiller(tokens('Envigado Colombia')), ['envigado', 'colombia']);
    assert.deepEqual(stripFiller(tokens('Colombia'), 'CO'), ['colombia']);
    assert.deepEqual(stripFiller(tokens('Ciudad')), ['ciudad']);
  });

  test('stripFiller drops the kind of district a city is, before or after its name', () => {
    assert.deepEqual(stripFiller(tokens('DM Quito')), ['quito']);
    assert.deepEqual(stripFiller(tokens('Distrito Metropolitano de Quito')), ['quito']);
    assert.deepEqual(stripFiller(tokens('Quito, D.M.')), ['quito']);
    assert.deepEqual(stripFiller(tokens('Barranquilla D.E.I.P.')), ['barranquilla']);
    assert.deepEqual(stripFiller(tokens('Santa Marta D.T.C.H.')), ['santa', 'marta']);
    assert.deepEqual(stripFiller(tokens('Buenaventura Distrito Especial')), ['buenaventura']);
  });

  test('phonetic gives Spanish spellings that sound alike one key', () => {
    assert.equal(phonetic('vilavisencio'), phonetic('villavicencio'));
    assert.equal(phonetic('sogamozo'), phonetic('sogamoso'));
    assert.equal(phonetic('barrancavermeja'), phonetic('barrancabermeja'));
    assert.equal(phonetic('ibague'), phonetic('hibague'));
    assert.equal(phonetic('jirardota'), phonetic('girardota'));
    assert.notEqual(phonetic('girardot'), phonetic('girardota'));
  });

  test('editDistance counts edits and an adjacent transposition as one, and stops above max', () => {
    assert.equal(editDistance('medellin', 'medellin', 2), 0);
    assert.equal(editDistance('medellin', 'mdellin', 2), 1);
    assert.equal(editDistance('medellin', 'emdellin', 2), 1);
    assert.equal(editDistance('medellin', 'medelin', 2), 1);
    assert.equal(editDistance('medellin', 'medallon', 2), 2);
    assert.equal(editDistance('medellin', 'bogota', 2), 3);
    assert.equal(editDistance('abc', 'abcdefgh', 2), 3);
  });

  test('deletions lists the key and each single-deletion variant once', () => {
    assert.deepEqual(deletions('cali'), ['cali', 'ali', 'cli', 'cai', 'cal']);
    assert.deepEqual(deletions('aab'), ['aab', 'ab', 'aa']);
  });
});

describe('CityMatcher: confident matches', () => {
  test('the region and city as in the catalog, in any case and without accents, match exactly with the code', () => {
    assert.deepEqual(decide('antioquia', 'MEDELLIN'), {
      confident: true,
      method: 'exact',
      score: 1,
      region: 'Antioquia',
      city: 'Medellín',
      code: '05001',
      reason: 'Region and city found in the catalog',
    });
    const bogota = decide('BOGOTA D.C.', 'BOGOTA D.C.');
    assert.equal(where(bogota), 'Bogotá, D.C. / Bogotá, D.C.');
    assert.equal(bogota.code, '11001');
  });

  test('a catalog entry without code keeps a null code', () => {
    assert.equal(decide('narino', 'pasto').code, null);
  });

  test('filler words around the name do not matter', () => {
    assert.equal(where(decide('Departamento de Antioquia', 'Municipio de Envigado')), 'Envigado / Antioquia');
    assert.equal(where(decide('Bogota', 'Bogota DC')), 'Bogotá, D.C. / Bogotá, D.C.');
    assert.equal(where(decide('Antioquia', 'Bolívar')), 'Ciudad Bolívar / Antioquia');
  });

  test('a known alias of a city or a region matches with method alias', () => {
    const cali = decide('Valle', 'Cali');
    assert.equal(where(cali), 'Santiago de Cali / Valle del Cauca');
    assert.equal(cali.method, 'alias');
    assert.ok(cali.score < 1);
    assert.equal(where(decide('Distrito Capital', 'Santafe de Bogota')), 'Bogotá, D.C. / Bogotá, D.C.');
  });

  test('a well-known neighbourhood typed as the city resolves to its municipality when the region agrees', () => {
    const d = decide('Bogotá', 'Chapinero');
    assert.equal(where(d), 'Bogotá, D.C. / Bogotá, D.C.');
    assert.equal(d.method, 'alias');
    assert.equal(where(decide('Distrito Capital', 'kennedy')), 'Bogotá, D.C. / Bogotá, D.C.');
  });

  test('a region often given for another one still finds the city there', () => {
    const overlapping = new CityMatcher(CATALOG, { country: 'CO', aliases: { ...ALIASES, overlaps: [['Cundinamarca', 'Bogotá, D.C.']] } });
    assert.equal(where(overlapping.match('Cundinamarca', 'Bogotá')), 'Bogotá, D.C. / Bogotá, D.C.');
    assert.equal(where(overlapping.match('Cundinamarca', 'Santafé de Bogotá')), 'Bogotá, D.C. / Bogotá, D.C.');
  });

  test('one dropped letter is one typo even where it changes how the letters around it sound', () => {
    // "Cácres": c before r sounds k, in "Cáceres" it is s: two slips by sound, one by spelling.
    const m = new CityMatcher([...CATALOG, { region: 'Antioquia', city: 'Cáceres', code: '05120' }, { region: 'Antioquia', city: 'Briceño', code: '05107' }]);
    assert.equal(where(m.match('Antioquia', 'Cácres')), 'Cáceres / Antioquia');
    assert.equal(where(m.match('Antioquia', 'Bricño')), 'Briceño / Antioquia');
    assert.equal(m.match('Antioquia', 'Bricño').method, 'fuzzy');
  });

  test('a city written with the kind of district it is matches the city', () => {
    assert.equal(where(decide('Magdalena', 'Santa Marta D.T.C.H.')), 'Santa Marta / Magdalena');
    assert.equal(where(decide('Valle', 'Cali, Distrito Especial')), 'Santiago de Cali / Valle del Cauca');
  });

  test('a city given with the region it belonged to before is found where it is now', () => {
    const entries = [
      { region: 'Santa Elena', city: 'Salinas', code: '2403' },
      { region: 'Guayas', city: 'Guayaquil', code: '0901' },
      { region: 'Bolívar', city: 'Guaranda', code: '0201' },
    ];
    const places = { Bolívar: { Guaranda: ['Salinas'] } };
    const ec = new CityMatcher(entries, { aliases: { places, moved: { 'Santa Elena': { Salinas: ['Guayas'] } } } });
    const d = ec.match('Guayas', 'Salinas');
    assert.equal(where(d), 'Salinas / Santa Elena');
    assert.match(d.reason, /belonged to Guayas/);
    // Without the move, a parish of that name elsewhere makes it a review; in its own region it stays one.
    assert.equal(new CityMatcher(entries, { aliases: { places } }).match('Guayas', 'Salinas').confident, false);
    assert.equal(ec.match('Bolívar', 'Salinas').confident, false);
  });

  test('a capital known by the name of its region is found when the region agrees', () => {
    const mx = new CityMatcher(
      [
        { region: 'Oaxaca', city: 'Oaxaca de Juárez', code: '20067' },
        { region: 'Querétaro', city: 'Querétaro', code: '22014' },
        { region: 'Jalisco', city: 'Guadalajara', code: '14039' },
      ],
      { aliases: { regions: { Querétaro: ['Qro'] } } },
    );
    assert.equal(where(mx.match('Oaxaca', 'Oaxaca')), 'Oaxaca de Juárez / Oaxaca');
    assert.equal(mx.match('Jalisco', 'Oaxaca').confident, false);
    assert.equal(mx.match('', 'Oaxaca').confident, false);
    // A region's abbreviation in the city field reads as the region's name: Querétaro has a Querétaro.
    assert.equal(where(mx.match('Querétaro', 'Qro')), 'Querétaro / Querétaro');
    assert.equal(mx.match('Jalisco', 'Qro').confident, false);
  });

  test('a phone number, a road marker or a part of town after the name is ignored; a street address is not a town', () => {
    assert.equal(where(decide('Valle', 'Tuluá cel 3156789012')), 'Tuluá / Valle del Cauca');
    assert.equal(where(decide('', 'Soacha km 5')), 'Soacha / Cundinamarca');
    assert.equal(where(decide('Antioquia', 'Medellín sur')), 'Medellín / Antioquia');
    assert.match(decide('Antioquia', 'Envigado 604 3334455').reason, /phone number/);
    assert.equal(decide('Valle', 'Av. Cali 3233 int 4').confident, false);
    assert.equal(where(decide('Antioquia', 'Envigado barrio La Magnolia')), 'Envigado / Antioquia');
    assert.equal(where(decide('Nariño', 'Pasto cerca del parque')), 'Pasto / Nariño');
    // A trailing part of town stays when it is part of the name.
    assert.equal(where(new CityMatcher([{ region: 'Alto Paraná', city: 'Ciudad del Este', code: '1001' }]).match('', 'Ciudad del Este 0983')), 'Ciudad del Este / Alto Paraná');
  });

  test('a well-known locality of a city that changed region is found with the old region; other places are not', () => {
    const ec = new CityMatcher([{ region: 'Santa Elena', city: 'Santa Elena', code: '2401' }, { region: 'Guayas', city: 'Guayaquil', code: '0901' }], {
      aliases: { moved: { 'Santa Elena': { 'Santa Elena': ['Guayas'] } }, places: { 'Santa Elena': { 'Santa Elena': ['Atahualpa'] } }, wellKnown: { 'Santa Elena': { 'Santa Elena': ['Montañita'] } } },
    });
    assert.equal(where(ec.match('Guayas', 'Montañita')), 'Santa Elena / Santa Elena');
    assert.equal(ec.match('Guayas', 'Atahualpa').confident, false);
    assert.equal(ec.match('Pichincha', 'Montañita').confident, false);
  });

  test("a small town's exact name that a bigger town of the region goes by for short is a review", () => {
    const mx = new CityMatcher([
      { region: 'México', city: 'Atizapán', code: '15013' },
      { region: 'México', city: 'Atizapán de Zaragoza', code: '15013' },
      { region: 'México', city: 'Toluca', code: '15106' },
    ]);
    const d = mx.match('México', 'Atizapán');
    assert.equal(d.confident, false);
    assert.deepEqual(d.candidates?.map((c) => c.city).sort(), ['Atizapán', 'Atizapán de Zaragoza']);
    assert.equal(where(mx.match('México', 'Atizapán de Zaragoza')), 'Atizapán de Zaragoza / México');
  });

  test('a name with the article people add is found in its region and never moves a buyer elsewhere', () => {
    const m = new CityMatcher([
      { region: 'Antioquia', city: 'Peñol', code: '05541' },
      { region: 'Nariño', city: 'El Peñol', code: '52254' },
      { region: 'Itapúa', city: 'Encarnación', code: '0701' },
      { region: 'Asunción', city: 'Asunción', code: '0001' },
    ]);
    assert.equal(where(m.match('Antioquia', 'El Peñol')), 'Peñol / Antioquia');
    assert.equal(where(m.match('Nariño', 'El Peñol')), 'El Peñol / Nariño');
    assert.equal(m.match('Asunción', 'La Encarnación').confident, false);
  });

  test('two towns of a region known by one name ("Casas Grandes", "El Carmen") are a review', () => {
    const m = new CityMatcher(
      [
        { region: 'Chihuahua', city: 'Casas Grandes', code: '08013' },
        { region: 'Chihuahua', city: 'Nuevo Casas Grandes', code: '08050' },
        { region: 'Chocó', city: 'El Carmen de Atrato', code: '27245' },
        { region: 'Chocó', city: 'Carmen del Darién', code: '27150' },
      ],
      { aliases: { places: { Chocó: { 'Carmen del Darién': ['El Carmen'] } } } },
    );
    assert.equal(m.match('Chihuahua', 'Casas Grandes').confident, false);
    assert.equal(where(m.match('Chihuahua', 'Nuevo Casas Grandes')), 'Nuevo Casas Grandes / Chihuahua');
    assert.deepEqual(m.match('Chocó', 'El Carmen').candidates?.map((c) => c.city).sort(), ['Carmen del Darién', 'El Carmen de Atrato']);
  });

  test("outside the given region a municipio's own name outranks another's seat name; without a region both count", () => {
    const m = new CityMatcher(
      [
        { region: 'Valle del Cauca', city: 'Cartago', code: '76147' },
        { region: 'Nariño', city: 'San Pedro de Cartago', code: '52694' },
        { region: 'Risaralda', city: 'Pereira', code: '66001' },
      ],
      { aliases: { cities: { Nariño: { 'San Pedro de Cartago': ['Cartago'] } } } },
    );
    assert.equal(where(m.match('Risaralda', 'Cartago')), 'Cartago / Valle del Cauca');
    assert.equal(where(m.match('Nariño', 'Cartago')), 'San Pedro de Cartago / Nariño');
    assert.equal(m.match('', 'Cartago').confident, false);
  });

  test('a buyer who names another region is moved only to a major city of that name', () => {
    const m = new CityMatcher([...CATALOG, { region: 'Arauca', city: 'Arauca', code: '81001' }, { region: 'Norte de Santander', city: 'La Playa', code: '54398' }], {
      aliases: { major: { Antioquia: ['Medellín'], Arauca: ['Arauca'] } },
    });
    assert.equal(where(m.match('Cundinamarca', 'Medellín')), 'Medellín / Antioquia');
    assert.equal(where(m.match('Caldas', 'Arauca')), 'Arauca / Arauca');
    const d = m.match('Atlántico', 'La Playa');
    assert.equal(d.confident, false);
    assert.match(d.reason, /small town of another region/);
    // Without a region the one town of that name is still the answer.
    assert.equal(where(m.match('', 'La Playa')), 'La Playa / Norte de Santander');
  });

  test('a city of the region named like a neighbourhood of a region given for it is a review', () => {
    const co = new CityMatcher([...CATALOG, { region: 'Cundinamarca', city: 'Venecia', code: '25506' }], {
      country: 'CO',
      aliases: { overlaps: [['Cundinamarca', 'Bogotá, D.C.']], places: { 'Bogotá, D.C.': { 'Bogotá, D.C.': ['Venecia'] } } },
    });
    const d = co.match('Cundinamarca', 'Venecia');
    assert.equal(d.confident, false);
    assert.deepEqual(d.candidates?.map((c) => c.city).sort(), ['Bogotá, D.C.', 'Venecia']);
    assert.equal(where(co.match('Cundinamarca', 'Soacha')), 'Soacha / Cundinamarca');
  });

  test('a city of the region is found by the first words of its name', () => {
    const d = new CityMatcher([...CATALOG, { region: 'Cesar', city: 'Manaure Balcón del Cesar', code: '20443' }, { region: 'La Guajira', city: 'Manaure', code: '44560' }]).match('Cesar', 'Manaure');
    assert.equal(where(d), 'Manaure Balcón del Cesar / Cesar');
  });

  test('a short form of a long official name is an alias ("Ecatepec" for "Ecatepec de Morelos")', () => {
    const mx = new CityMatcher([
      { region: 'México', city: 'Ecatepec de Morelos', code: '15033' },
      { region: 'Guerrero', city: 'Juchitán', code: '12080' },
      { region: 'Oaxaca', city: 'Heroica Ciudad de Juchitán de Zaragoza', code: '20043' },
    ]);
    assert.equal(where(mx.match('', 'Ecatepec')), 'Ecatepec de Morelos / México');
    assert.equal(where(mx.match('Oaxaca', 'Juchitán')), 'Heroica Ciudad de Juchitán de Zaragoza / Oaxaca');
    assert.equal(mx.match('', 'Juchitán').confident, false, 'a real name and a short form in two regions are ambiguous');
  });

  test('a misspelt region is still recognised', () => {
    const d = decide('Antioqia', 'Envigado');
    assert.equal(where(d), 'Envigado / Antioquia');
    assert.ok(d.score < 1);
  });

  test('a spelling that sounds the same matches within the region', () => {
    const d = decide('Meta', 'Vilavisencio');
    assert.equal(where(d), 'Villavicencio / Meta');
    assert.equal(d.method, 'fuzzy');
  });

  test('a typo inside the region matches with a score below 1', () => {
    const d = decide('Santander', 'Barrancaberneja');
    assert.equal(where(d), 'Barrancabermeja / Santander');
    assert.equal(d.method, 'fuzzy');
    assert.ok(d.score > 0.8 && d.score < 1);
  });

  test('a city that exists in one region only is found when the region is wrong or missing', () => {
    const wrong = decide('Cundinamarca', 'medellin');
    assert.equal(where(wrong), 'Medellín / Antioquia');
    assert.equal(wrong.method, 'unique_city');
    assert.ok(wrong.score < 1);
    assert.equal(where(decide('', 'Soacha')), 'Soacha / Cundinamarca');
    assert.equal(where(decide('N/A', 'Soacha')), 'Soacha / Cundinamarca');
  });

  test('the region given decides between two cities of the same name', () => {
    assert.equal(decide('Nariño', 'la union').code, '52399');
    assert.equal(decide('Antioquia', 'La Unión').code, '05400');
  });

  test('a region or the country written into the city field is ignored', () => {
    assert.equal(where(decide('', 'Envigado, Antioquia')), 'Envigado / Antioquia');
    assert.equal(where(decide('Valle', 'Tulua Valle')), 'Tuluá / Valle del Cauca');
    assert.equal(where(decide('', 'Pitalito, Huila, Colombia')), 'Pitalito / Huila');
  });

  test('a city name that contains the country name keeps it', () => {
    assert.equal(where(decide('Atlántico', 'Puerto Colombia')), 'Puerto Colombia / Atlántico');
    assert.equal(where(decide('Huila', 'Colombia')), 'Colombia / Huila');
  });

  test('swapped region and city fields are read the right way round', () => {
    const d = decide('Medellín', 'Antioquia');
    assert.equal(where(d), 'Medellín / Antioquia');
    assert.match(d.reason, /swapped/);
  });
});

describe('CityMatcher: review instead of a guess', () => {
  test('a city name in two regions is not confident when the region does not decide, and lists both', () => {
    for (const region of ['Valle del Cauca', '']) {
      const d = decide(region, 'La Union');
      assert.equal(d.confident, false);
      assert.equal(d.method, 'none');
      assert.equal(d.region, undefined);
      assert.equal(d.city, undefined);
      assert.deepEqual(d.candidates?.map(where).sort(), ['La Unión / Antioquia', 'La Unión / Nariño']);
    }
  });

  test('a name close to a city of the region but exactly a city of another region is a review with both', () => {
    const d = decide('Cundinamarca', 'Girardota');
    assert.equal(d.confident, false);
    assert.deepEqual(d.candidates?.map(where).sort(), ['Girardot / Cundinamarca', 'Girardota / Antioquia']);
  });

  test('a neighbourhood is not placed without a region, and never over a city of the same name', () => {
    assert.equal(decide('', 'Kennedy').confident, false);
    assert.equal(where(decide('Nariño', 'Pasto')), 'Pasto / Nariño');
    const d = decide('', 'Pasto');
    assert.equal(d.confident, false);
    assert.deepEqual(d.candidates?.map(where).sort(), ['Medellín / Antioquia', 'Pasto / Nariño']);
  });

  test('a neighbourhood of the given region that is also a city elsewhere is a review', () => {
    const d = decide('Antioquia', 'Pasto');
    assert.equal(d.confident, false);
    assert.deepEqual(d.candidates?.map(where).sort(), ['Medellín / Antioquia', 'Pasto / Nariño']);
  });

  test('a city that needs its filler words dropped to match is not moved to another region', () => {
    const d = decide('Valle del Cauca', 'Ciudad Envigado');
    assert.equal(d.confident, false);
    assert.equal(where(decide('', 'Ciudad Envigado')), 'Envigado / Antioquia');
  });

  test('the name of a region in the city field only counts where that region has a city of that name', () => {
    assert.equal(decide('', 'Meta').confident, false);
    const mx = new CityMatcher([
      { region: 'Aguascalientes', city: 'Aguascalientes', code: '01001' },
      { region: 'Zacatecas', city: 'Tabasco', code: '32039' },
      { region: 'Tabasco', city: 'Centro', code: '27004' },
    ]);
    assert.equal(where(mx.match('', 'Aguascalientes')), 'Aguascalientes / Aguascalientes');
    assert.equal(mx.match('Tabasco', 'Tabasco').confident, false);
    assert.equal(mx.match('', 'Tabasco').confident, false);
  });

  test('an unknown city is not confident and has no candidates', () => {
    const d = decide('Antioquia', 'Gotham');
    assert.equal(d.confident, false);
    assert.equal(d.score, 0);
    assert.equal(d.candidates, undefined);
    assert.match(d.reason, /No city/);
  });

  test('the country name in the city field is a review, not the town of that name', () => {
    const d = decide('', 'Colombia');
    assert.equal(d.confident, false);
    assert.match(d.reason, /country/);
  });

  test('a region name in the city field is a review that says so', () => {
    const d = decide('Antioquia', 'Antioquia');
    assert.equal(d.confident, false);
    assert.match(d.reason, /region/);
  });

  test('short names get no typo tolerance', () => {
    assert.equal(decide('Valle', 'Cala').confident, false);
  });

  test('a typo with no region needs a long name and a single close city', () => {
    assert.equal(where(decide('', 'Barrancabermjea')), 'Barrancabermeja / Santander');
    assert.equal(decide('', 'Sohacha').confident, true);
    assert.equal(decide('', 'La Unon').confident, false);
    // One letter dropped from a seven-letter name leaves six: still enough when one city is that close.
    const py = new CityMatcher([
      { region: 'Alto Paraná', city: 'Itakyry', code: '1013' },
      { region: 'Central', city: 'Itauguá', code: '1106' },
    ]);
    assert.equal(where(py.match('', 'Itakry')), 'Itakyry / Alto Paraná');
    assert.equal(decide('', 'Pasta').confident, false);
  });

  test('a neighbourhood of a region often given for another one is a review: barrio names repeat', () => {
    const overlapping = new CityMatcher(CATALOG, { country: 'CO', aliases: { ...ALIASES, overlaps: [['Cundinamarca', 'Bogotá, D.C.']] } });
    const d = overlapping.match('Cundinamarca', 'Chapinero');
    assert.equal(d.confident, false);
    assert.deepEqual(d.candidates?.map((c) => c.city), ['Bogotá, D.C.']);
    assert.match(d.reason, /neighbourhood/);
    assert.equal(matcher.match('Cundinamarca', 'Chapinero').confident, false);
  });

  test('a name that sounds like one city and is one letter from another is a review with both', () => {
    const mx = new CityMatcher([
      { region: 'Jalisco', city: 'Talpa de Allende', code: '14084' },
      { region: 'Jalisco', city: 'Tapalpa', code: '14085' },
    ]);
    const d = mx.match('Jalisco', 'Taalpa');
    assert.equal(d.confident, false);
    assert.deepEqual(d.candidates?.map((c) => c.city).sort(), ['Talpa de Allende', 'Tapalpa']);
    assert.equal(mx.match('', 'Taalpa').confident, false);
    assert.equal(where(mx.match('Jalisco', 'Tapalpa')), 'Tapalpa / Jalisco');
  });

  test('an empty city is a review', () => {
    assert.equal(decide('Antioquia', '').confident, false);
  });

  test('every candidate list is at most ten entries', () => {
    const many = Array.from({ length: 15 }, (_, i) => ({ region: `Región ${i}`, city: 'San José', code: null }));
    const d = new CityMatcher(many).match('', 'San Jose');
    assert.equal(d.confident, false);
    assert.equal(d.candidates?.length, 10);
  });
});

describe('CityMatcher.entry', () => {
  test('finds the entry a person named, accents, case and aliases aside', () => {
    assert.deepEqual(matcher.entry('antioquia', 'medellin'), { region: 'Antioquia', city: 'Medellín', code: '05001' });
    assert.deepEqual(matcher.entry('Valle', 'Cali'), { region: 'Valle del Cauca', city: 'Santiago de Cali', code: '76001' });
  });

  test('refuses typos, neighbourhoods and a city outside the named region', () => {
    assert.equal(matcher.entry('Antioquia', 'Medelin'), undefined);
    assert.equal(matcher.entry('Bogotá, D.C.', 'Chapinero'), undefined);
    assert.equal(matcher.entry('Cundinamarca', 'Medellín'), undefined);
    assert.equal(matcher.entry('Atlantis', 'Medellín'), undefined);
  });
});
