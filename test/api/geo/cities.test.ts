import { databaseEnv } from '../../helpers/test-database.ts';
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request, type IncomingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { manualClock } from '../../../src/clock.ts';
import { writeTransaction } from '../../../src/db/transaction.ts';
import { catalogRows, replaceCatalog } from '../../../src/db/queries/cities.queries.ts';
import { importCatalog } from '../../../src/use-cases/geo/city-catalogs.use-case.ts';
import { openApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes on the wire (still content-encoded). */
  body: Buffer;
}

interface CitiesBody {
  success: boolean;
  data: { country: string; official: boolean; regions: Record<string, string[]> };
}

interface ErrorBody {
  success: false;
  error: string;
  details?: { field: string; message: string }[];
}

const OFFICIAL = ['AR', 'CL', 'CO', 'EC', 'GT', 'MX', 'PE', 'PY'];
const spanish = new Intl.Collator('es');
const dataset = (country: string) =>
  JSON.parse(readFileSync(new URL(`../../../data/cities/${country}.json`, import.meta.url), 'utf8')) as { regions: Record<string, string[]> };

describe('GET /api/geo/cities', () => {
  let server: TestServer;
  const clock = manualClock('2025-06-02T10:00:00.000Z');

  /** GET with node:http, which (unlike fetch) sends no Accept-Encoding of its own and does not decode. */
  const get = (path: string, headers: Record<string, string> = {}): Promise<Raw> =>
    new Promise((resolve, reject) => {
      const req = request(`${server.url}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  const json = <T>(raw: Raw): T => JSON.parse(raw.body.toString('utf8')) as T;
  const cities = (country: string, headers: Record<string, string> = {}) => get(`/api/geo/cities?country=${encodeURIComponent(country)}`, headers);

  before(async () => {
    server = await startServer({}, { clock });
  });
  after(() => server.close());

  describe('the country parameter', () => {
    test('a request without country answers 400 with details on country', async () => {
      for (const path of ['/api/geo/cities', '/api/geo/cities?country=', '/api/geo/cities?country=%20%20', '/api/geo/cities?pais=CO']) {
        const res = await get(path);
        assert.equal(res.status, 400, path);
        const body = json<ErrorBody>(res);
        assert.equal(body.success, false);
        assert.equal(typeof body.error, 'string');
        assert.equal(body.details?.[0]?.field, 'country', path);
        assert.equal(typeof body.details?.[0]?.message, 'string');
        assert.match(String(res.headers['content-type']), /^application\/json/);
        assert.ok(res.headers['x-request-id']);
      }
    });

    test('a country that is not an assigned ISO 3166-1 alpha-2 code answers 400 with details on country', async () => {
      for (const country of ['C', 'COL', '12', 'XX', 'C0', 'ÇO', 'C O', 'co ,']) {
        const res = await cities(country);
        assert.equal(res.status, 400, country);
        const body = json<ErrorBody>(res);
        assert.equal(body.success, false);
        assert.equal(body.details?.[0]?.field, 'country', country);
        assert.equal(res.headers['etag'], undefined, `${country}: an error is not cacheable as a catalog`);
      }
    });

    test('the country code is case-insensitive and answered in upper case', async () => {
      const lower = await cities('co');
      const mixed = await cities('Co');
      const upper = await cities('CO');
      for (const res of [lower, mixed, upper]) {
        assert.equal(res.status, 200);
        assert.equal(json<CitiesBody>(res).data.country, 'CO');
      }
      assert.deepEqual(lower.body, upper.body);
      assert.equal(lower.headers.etag, upper.headers.etag);
    });
  });

  describe('the datasets', () => {
    for (const country of OFFICIAL) {
      test(`${country} answers official:true with the regions and cities of data/cities/${country}.json, each list in Spanish order`, async () => {
        const res = await cities(country);
        assert.equal(res.status, 200);
        const body = json<CitiesBody>(res);
        assert.equal(body.success, true);
        assert.equal(body.data.country, country);
        assert.equal(body.data.official, true);
        const file = dataset(country).regions;
        assert.deepEqual(Object.keys(body.data.regions).sort(), Object.keys(file).sort());
        for (const [region, list] of Object.entries(body.data.regions)) {
          assert.ok(list.length > 0, `${region} has cities`);
          for (let i = 1; i < list.length; i++)
            assert.ok(spanish.compare(list[i - 1]!, list[i]!) <= 0, `${country}/${region}: "${list[i - 1]}" is sorted before "${list[i]}"`);
          assert.deepEqual([...list].sort(), [...(file[region] ?? [])].sort(), `${country}/${region} has the dataset's cities`);
        }
      });
    }

    test('the Spanish order puts accented initials with their letter and Ñ between N and O', async () => {
      // Code-point order would put "Á", "Í" and "Ñ" after "Z"; Spanish collation does not.
      const co = json<CitiesBody>(await cities('CO')).data.regions;
      const norte = co['Norte de Santander'] ?? [];
      assert.deepEqual(norte.slice(0, 3), ['Ábrego', 'Arboledas', 'Bochalema']);
      const huila = co['Huila'] ?? [];
      assert.ok(huila.indexOf('Íquira') >= 0 && huila.indexOf('Íquira') < huila.indexOf('Isnos'), 'Íquira sorts before Isnos');
      const rioNegro = json<CitiesBody>(await cities('AR')).data.regions['Río Negro'] ?? [];
      const at = (city: string) => rioNegro.indexOf(city);
      assert.ok(at('Naupa Huen') >= 0 && at('Naupa Huen') < at('Ñirihuau'), 'N before Ñ');
      assert.ok(at('Ñorquincó') < at('Ojos de Agua'), 'Ñ before O');
    });

    test('PA and other valid ISO codes answer official:false with empty regions', async () => {
      for (const country of ['PA', 'US', 'BR', 'es', 'AQ']) {
        const res = await cities(country);
        assert.equal(res.status, 200, country);
        assert.deepEqual(json<CitiesBody>(res), { success: true, data: { country: country.toUpperCase(), official: false, regions: {} } });
        assert.equal(res.headers['cache-control'], 'public, max-age=86400');
        assert.match(String(res.headers.etag), /^"[^"]+"$/);
      }
    });
  });

  describe('caching', () => {
    test('an answer is public for one day and carries a strong ETag', async () => {
      const res = await cities('PE');
      assert.equal(res.status, 200);
      assert.equal(res.headers['cache-control'], 'public, max-age=86400');
      const etag = res.headers.etag;
      assert.ok(etag, 'ETag is present');
      assert.ok(!etag.startsWith('W/'), `ETag ${etag} is strong`);
      assert.match(etag, /^"[\x21\x23-\x7e]+"$/);
      assert.match(String(res.headers.vary), /accept-encoding/i);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.equal(Number(res.headers['content-length']), res.body.length);
      assert.equal(res.headers['access-control-allow-origin'], '*');
    });

    test('If-None-Match with the current ETag answers 304 with no body and the same validators', async () => {
      const first = await cities('CL');
      const etag = first.headers.etag!;
      const res = await cities('CL', { 'if-none-match': etag });
      assert.equal(res.status, 304);
      assert.equal(res.body.length, 0);
      assert.equal(res.headers.etag, etag);
      assert.equal(res.headers['cache-control'], 'public, max-age=86400');
      assert.ok(res.headers['x-request-id']);
    });

    test('If-None-Match matches in a list and by weak comparison, and a different tag gets the full answer', async () => {
      const etag = (await cities('EC')).headers.etag!;
      assert.equal((await cities('EC', { 'if-none-match': `"other", ${etag}` })).status, 304);
      assert.equal((await cities('EC', { 'if-none-match': `W/${etag}` })).status, 304);
      assert.equal((await cities('EC', { 'if-none-match': '*' })).status, 304);
      const miss = await cities('EC', { 'if-none-match': '"not-the-tag"' });
      assert.equal(miss.status, 200);
      assert.equal(json<CitiesBody>(miss).data.country, 'EC');
      const otherCountry = (await cities('GT')).headers.etag!;
      assert.equal((await cities('EC', { 'if-none-match': otherCountry })).status, 200);
    });

    test('the same catalog answers the same bytes and ETag on every request', async () => {
      const a = await cities('MX');
      const b = await cities('MX');
      const c = await cities('mx', { 'accept-encoding': 'identity' });
      assert.equal(a.headers.etag, b.headers.etag);
      assert.equal(a.headers.etag, c.headers.etag);
      assert.deepEqual(a.body, b.body);
      assert.deepEqual(a.body, c.body);
      const gz1 = await cities('MX', { 'accept-encoding': 'gzip' });
      const gz2 = await cities('MX', { 'accept-encoding': 'gzip' });
      assert.equal(gz1.headers.etag, gz2.headers.etag);
      assert.deepEqual(gz1.body, gz2.body);
    });
  });

  describe('compression', () => {
    test('without Accept-Encoding the answer is identity-encoded JSON', async () => {
      const res = await cities('AR');
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-encoding'], undefined);
      assert.equal(json<CitiesBody>(res).data.country, 'AR');
    });

    test('Accept-Encoding gzip answers gzip whose decoded bytes equal the identity body', async () => {
      const identity = await cities('AR');
      const res = await cities('AR', { 'accept-encoding': 'gzip' });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-encoding'], 'gzip');
      assert.equal(Number(res.headers['content-length']), res.body.length);
      assert.ok(res.body.length < identity.body.length / 2, 'gzip is smaller');
      assert.deepEqual(gunzipSync(res.body), identity.body);
    });

    test('Accept-Encoding br answers brotli whose decoded bytes equal the identity body', async () => {
      const identity = await cities('AR');
      const res = await cities('AR', { 'accept-encoding': 'br' });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-encoding'], 'br');
      assert.equal(Number(res.headers['content-length']), res.body.length);
      assert.deepEqual(brotliDecompressSync(res.body), identity.body);
    });

    test('brotli is preferred when both are accepted, and q-values decide otherwise', async () => {
      const identity = await cities('PY');
      const cases: [string, string | undefined][] = [
        ['gzip, deflate, br', 'br'],
        ['br;q=0.5, gzip', 'gzip'],
        ['br;q=0, gzip', 'gzip'],
        ['gzip;q=0, br;q=0', undefined],
        ['deflate', undefined],
        ['*', 'br'],
        ['GZIP', 'gzip'],
      ];
      for (const [accept, expected] of cases) {
        const res = await cities('PY', { 'accept-encoding': accept });
        assert.equal(res.status, 200, accept);
        assert.equal(res.headers['content-encoding'], expected, accept);
        const decoded = expected === 'br' ? brotliDecompressSync(res.body) : expected === 'gzip' ? gunzipSync(res.body) : res.body;
        assert.deepEqual(decoded, identity.body, accept);
      }
    });

    test('each content coding has its own strong ETag, and a 304 answers for the coding the client accepts', async () => {
      const identity = await cities('GT');
      const gzip = await cities('GT', { 'accept-encoding': 'gzip' });
      const br = await cities('GT', { 'accept-encoding': 'br' });
      const tags = [identity.headers.etag, gzip.headers.etag, br.headers.etag];
      assert.equal(new Set(tags).size, 3, `distinct tags: ${tags.join(' ')}`);
      for (const tag of tags) assert.ok(tag && !tag.startsWith('W/'));
      const revalidated = await cities('GT', { 'accept-encoding': 'gzip', 'if-none-match': gzip.headers.etag! });
      assert.equal(revalidated.status, 304);
      assert.equal(revalidated.headers.etag, gzip.headers.etag);
    });
  });

  test('the CORS preflight of the city listing answers 204 for any origin', async () => {
    const res = await new Promise<Raw>((resolve, reject) => {
      const req = request(`${server.url}/api/geo/cities?country=CO`, { method: 'OPTIONS', headers: { origin: 'https://shop.example.com' } }, (r) => {
        r.resume();
        r.on('end', () => resolve({ status: r.statusCode ?? 0, headers: r.headers, body: Buffer.alloc(0) }));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers['access-control-allow-origin'], 'https://shop.example.com');
    assert.match(String(res.headers['access-control-allow-methods']), /GET/);
  });

  // Last: it changes the CO catalog of this server's database.
  describe('after a catalog change', () => {
    test('an import shows up within a second, with a new ETag and body, and the old ETag no longer answers 304', async () => {
      const before = await cities('CO');
      const beforeGzip = await cities('CO', { 'accept-encoding': 'gzip' });
      const oldTag = before.headers.etag!;
      // What `codrail cities import` does from another process: a new version in the database.
      const rows = await catalogRows(server.app.db, 'CO', 'official');
      const csv = ['region,city,code', ...[...rows, { region: 'Antioquia', city: 'Zona Nueva de Prueba', code: null }].map((r) => `"${r.region}","${r.city}",${r.code ?? ''}`)].join('\n');
      const other = await openApp(loadConfig({ db: server.dbFile }, databaseEnv()), { clock });
      await importCatalog(other, { country: 'CO', catalog: 'official', fileName: 'co.csv', content: csv });
      await other.close();

      clock.advance(1_001);
      const after = await cities('CO');
      assert.equal(after.status, 200);
      assert.notEqual(after.headers.etag, oldTag);
      assert.notDeepEqual(after.body, before.body);
      assert.ok(json<CitiesBody>(after).data.regions['Antioquia']?.includes('Zona Nueva de Prueba'));
      const afterGzip = await cities('CO', { 'accept-encoding': 'gzip' });
      assert.notEqual(afterGzip.headers.etag, beforeGzip.headers.etag);
      assert.deepEqual(gunzipSync(afterGzip.body), after.body);
      const stale = await cities('CO', { 'if-none-match': oldTag });
      assert.equal(stale.status, 200);
      assert.deepEqual(stale.body, after.body);
    });

    test('a change made by this process shows up at once after invalidating the catalog cache', async () => {
      const before = await cities('CO');
      const rows = await catalogRows(server.app.db, 'CO', 'official');
      const kept = rows.filter((r) => r.region !== 'Amazonas');
      assert.ok(kept.length < rows.length, 'Amazonas is a region of CO');
      await writeTransaction(server.app.db, (tx) => replaceCatalog(tx, 'CO', 'official', kept, 'test', clock.now().toISOString()));
      server.deps.catalogs.invalidate('CO');

      const after = await cities('CO');
      assert.equal(after.status, 200);
      assert.notEqual(after.headers.etag, before.headers.etag);
      const body = json<CitiesBody>(after);
      assert.equal(body.data.official, true);
      assert.equal(body.data.regions['Amazonas'], undefined);
      // Every other region as written, whatever the tests before this one left in the catalog.
      assert.deepEqual([...(body.data.regions['Antioquia'] ?? [])].sort(), kept.filter((r) => r.region === 'Antioquia').map((r) => r.city).sort());
    });
  });
});
