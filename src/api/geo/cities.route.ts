// GET /api/geo/cities (SPEC 4.2). Bodies are serialized and compressed once per catalog version;
// a request costs a cache lookup, an ETag comparison and one write.
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { createHash } from 'node:crypto';
import type { RequestContext } from '../../http/context.ts';
import { sendEmpty } from '../../http/respond.ts';
import { listCities, type CitiesData } from '../../use-cases/geo/list-cities.use-case.ts';
import { CITIES_MAX_AGE_S } from '../../limits.ts';

type Encoding = 'br' | 'gzip' | 'identity';

interface Prepared {
  version: number;
  /** One strong ETag per content coding: an encoded representation is distinct data (RFC 9110 8.8.3.3). */
  etag: Record<Encoding, string>;
  body: Record<Encoding, Buffer>;
}

const cache = new WeakMap<object, Map<string, Prepared>>();

function prepare(data: CitiesData): Prepared {
  const identity = Buffer.from(JSON.stringify({ success: true, data: { country: data.country, official: data.official, regions: data.regions, ...(data.names && { names: data.names }) } }));
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 32);
  return {
    version: data.version,
    etag: { identity: `"${hash}"`, gzip: `"${hash}-gzip"`, br: `"${hash}-br"` },
    body: {
      identity,
      gzip: gzipSync(identity, { level: 9 }),
      br: brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    },
  };
}

/** Picks br, then gzip, by the client's Accept-Encoding (q=0 refuses). */
export function chooseEncoding(accept: string | undefined): Encoding {
  if (!accept) return 'identity';
  const q = new Map<string, number>();
  for (const part of accept.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const qp = params.find((p) => p.trim().startsWith('q='));
    q.set(name!.trim(), qp ? Number(qp.trim().slice(2)) || 0 : 1);
  }
  const score = (e: string) => q.get(e) ?? q.get('*') ?? 0;
  if (score('br') > 0 && score('br') >= score('gzip')) return 'br';
  if (score('gzip') > 0) return 'gzip';
  return 'identity';
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

export async function citiesRoute(ctx: RequestContext): Promise<void> {
  const data = await listCities(ctx.deps, ctx.url.searchParams.get('country') ?? undefined, ctx.url.searchParams.get('names') ?? undefined);
  let byCountry = cache.get(ctx.deps.catalogs);
  if (!byCountry) cache.set(ctx.deps.catalogs, (byCountry = new Map()));
  const key = data.names ? `${data.country}+names` : data.country;
  let prepared = byCountry.get(key);
  if (!prepared || prepared.version !== data.version) byCountry.set(key, (prepared = prepare(data)));

  const encoding = chooseEncoding(ctx.req.headers['accept-encoding']);
  const headers: Record<string, string> = {
    'Cache-Control': `public, max-age=${CITIES_MAX_AGE_S}`,
    ETag: prepared.etag[encoding],
    Vary: 'Accept-Encoding',
    'Access-Control-Allow-Origin': '*',
  };
  if (etagMatches(ctx.req.headers['if-none-match'], prepared.etag[encoding])) return sendEmpty(ctx, 304, headers);
  const body = prepared.body[encoding];
  if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
  ctx.res.writeHead(200, { ...ctx.headers, ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  ctx.res.end(body);
}
