// Geo tools (MCP-TOOLS.md §6.9 rows 54-55): local catalog tables only.
import { CanonicalizeCitySchema, ListCatalogCitiesSchema, canonicalizeCity, listCatalogCities } from '../../use-cases/geo/browse-cities.use-case.ts';
import { defineTool, READ_ONLY } from './tool-definition.ts';

export const geoTools = [
  defineTool({
    name: 'list_cities',
    title: 'List cities',
    description:
      "List the region and city names of a country's catalog (official where one exists, else the fulfillment catalog), filtered by region or a name query. Use canonicalize_city to resolve a buyer's free text. Paged with cursor/limit. Scope: mcp:invoke.",
    scope: 'mcp:invoke',
    annotations: READ_ONLY,
    input: ListCatalogCitiesSchema,
    hints: {
      invalid_input: 'country is an ISO code such as CO, MX or PA; omit region to list the cities of every region.',
      invalid_cursor: 'Pass next_cursor from the previous list_cities answer, or omit cursor to start over.',
    },
    run: (deps, _principal, input) => listCatalogCities(deps, input),
  }),
  defineTool({
    name: 'canonicalize_city',
    title: 'Canonicalize city',
    description:
      'Resolve a free-text city (plus region) to the catalog entry create_order would use, with a confidence flag and score, folding accents and aliases such as "Bogota" to "Bogotá, D.C.". An ambiguous input returns candidates to ask the buyer about. Scope: mcp:invoke.',
    scope: 'mcp:invoke',
    annotations: READ_ONLY,
    input: CanonicalizeCitySchema,
    run: (deps, _principal, input) => canonicalizeCity(deps, input),
  }),
];
