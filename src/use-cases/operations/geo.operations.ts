// Geo (MCP-TOOLS.md §6.9 rows 52-56): local catalog tables and phone metadata only.
import { CanonicalizeCitySchema, ListCatalogCitiesSchema, canonicalizeCity, listCatalogCities } from '../geo/browse-cities.use-case.ts';
import { listCountries, listRegions, normalizePhoneNumber } from '../geo/countries.use-case.ts';
import { CityDecision, CityPage, CountryList, ListCountriesInput, ListRegionsInput, NormalizedPhone, NormalizePhoneInput, RegionList } from '../geo/geo.schemas.ts';
import { READ_ONLY, defineOperation } from './operation.ts';

export const geoOperations = [
  defineOperation({
    name: 'list_countries',
    title: 'List countries',
    description: 'Countries a store can sell in: ISO code, currency, dial code, region label (departamento, estado, provincia), mobile length, timezone, city catalog. Scope: mcp:invoke.',
    scope: 'mcp:invoke',
    annotations: READ_ONLY,
    input: ListCountriesInput,
    output: CountryList,
    http: 'GET /countries',
    cli: 'geo countries',
    run: () => listCountries(),
  }),
  defineOperation({
    name: 'list_regions',
    title: 'List regions',
    description: "List the regions (departamentos, estados, provincias) of a country's city catalog with their number of cities. Use list_cities for the cities of one region. Scope: mcp:invoke.",
    scope: 'mcp:invoke',
    annotations: READ_ONLY,
    input: ListRegionsInput,
    output: RegionList,
    http: 'GET /countries/:country/regions',
    cli: 'geo regions <country>',
    run: listRegions,
  }),
  defineOperation({
    name: 'list_cities',
    title: 'List cities',
    description:
      "Region and city names of a country's catalog, filtered by region or a name query. canonicalize_city resolves a buyer's free text. Paged with cursor/limit. Scope: mcp:invoke.",
    scope: 'mcp:invoke',
    annotations: READ_ONLY,
    input: ListCatalogCitiesSchema,
    output: CityPage,
    hints: {
      invalid_input: 'country is an ISO code such as CO, MX or PA; omit region to list the cities of every region.',
      invalid_cursor: 'Pass next_cursor from the previous list_cities answer, or omit cursor to start over.',
    },
    http: 'GET /cities',
    cli: 'geo cities <country>',
    run: (deps, _caller, input) => listCatalogCities(deps, input),
  }),
  defineOperation({
    name: 'canonicalize_city',
    title: 'Canonicalize city',
    description:
      'Resolve a free-text city (plus region) to the catalog entry create_order would use, with confidence and score, folding accents and aliases ("Bogota" → "Bogotá, D.C."). An ambiguous input returns candidates. Scope: mcp:invoke.',
    scope: 'mcp:invoke',
    annotations: READ_ONLY,
    input: CanonicalizeCitySchema,
    output: CityDecision,
    http: 'GET /cities/canonicalize',
    cli: 'geo canonicalize <country> <city>',
    run: (deps, _caller, input) => canonicalizeCity(deps, input),
  }),
  defineOperation({
    name: 'normalize_phone',
    title: 'Normalize phone',
    description: "Validate and normalize a phone number for a country: E.164, national format, line type, mobile flag (WhatsApp needs a mobile). An invalid number answers valid: false. Scope: mcp:invoke.",
    scope: 'mcp:invoke',
    annotations: READ_ONLY,
    input: NormalizePhoneInput,
    output: NormalizedPhone,
    http: 'GET /phones/normalize',
    cli: 'geo phone <country> <phone>',
    run: normalizePhoneNumber,
  }),
];
