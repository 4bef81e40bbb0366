// Response shapes of the REST API that have no use-case of their own (seed 2.3, 2.4).
import * as v from 'valibot';

export const ErrorResponseSchema = v.object({
  success: v.literal(false),
  error: v.pipe(v.string(), v.description('Error text.')),
  details: v.optional(
    v.pipe(
      v.array(v.object({ field: v.string(), message: v.string() })),
      v.description('One item per bad field (or header, such as Idempotency-Key).'),
    ),
  ),
});

export const CitiesResponseSchema = v.object({
  success: v.literal(true),
  data: v.object({
    country: v.pipe(v.string(), v.regex(/^[A-Z]{2}$/), v.description('ISO 3166-1 alpha-2, upper case.')),
    official: v.pipe(v.boolean(), v.description('True when an official dataset exists; false means the checkout uses free text.')),
    regions: v.pipe(v.record(v.string(), v.array(v.string())), v.description('Region name → city names, sorted with Spanish collation.')),
    names: v.optional(
      v.pipe(
        v.object({
          common: v.pipe(v.record(v.string(), v.record(v.string(), v.string())), v.description('Region → catalog city → the name buyers use, where it differs ("Cali" for "Santiago de Cali").')),
          aliases: v.pipe(v.record(v.string(), v.record(v.string(), v.array(v.string()))), v.description('Region → catalog city → other names a search accepts.')),
        }),
        v.description('Only with names=1. Orders still store the catalog city.'),
      ),
    ),
  }),
});

export const HealthResponseSchema = v.object({
  success: v.literal(true),
  data: v.object({ status: v.literal('ok') }),
});

export const ReadyResponseSchema = v.object({
  success: v.literal(true),
  data: v.object({ ready: v.boolean(), database: v.boolean(), migrations: v.boolean() }),
});
