// What a buyer's phone gets from the landing page (issue 23, "how it will be judged"): Lighthouse
// 12.2.3 with its mobile preset (simulated slow 4G, 4× CPU slowdown, a Moto G Power screen) in
// Debian's Chromium, on the demo landing, whose product has a three-image gallery hosted by codrail.
// Lighthouse's figures are simulated from the page's own network graph (Lantern), not wall-clock
// timings of this machine; the report's summary is written to test-artifacts/ for a person to read.
// Lantern still scales this machine's main-thread tasks by 4, so a busy or slow host moves total
// blocking time: in CI the same page scored 92 and 93 once each, and 95 or more in every other run. Lighthouse's variability
// guide (docs/variability.md) answers that with several runs and their median, which is what is
// judged here: three runs, the one with the median performance score. Every run's figures are kept.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import { chromium, type Browser } from 'playwright-core';
import { startServer, type TestServer } from '../helpers/server.ts';
import { chromiumPath } from '../helpers/browser.ts';
import { OPEN_LIMITS } from '../api/orders/order-kit.ts';
import { runDemo } from '../../src/use-cases/demo.use-case.ts';

/** How many times Lighthouse loads the page; the median run is judged. Odd, so the median is a run. */
const RUNS = 3;
const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

/** A port nobody listens on now, for Chromium's DevTools endpoint that Lighthouse drives. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

interface NetworkRequest {
  url: string;
  transferSize: number;
  resourceType: string;
}

describe('the demo landing page under Lighthouse (mobile)', () => {
  let server: TestServer;
  let browser: Browser;
  let lhr: NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];
  /** One line per run, for the failure message and the artifact. */
  let everyRun = '';

  before(async () => {
    server = await startServer(OPEN_LIMITS);
    const demo = await runDemo(server.deps);
    const images = JSON.parse((await server.deps.db.selectFrom('products').select('images').where('id', '=', demo.product.id).executeTakeFirstOrThrow()).images) as unknown[];
    assert.equal(images.length, 3, 'the demo product has a three-image gallery');
    const port = await freePort();
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-dev-shm-usage', `--remote-debugging-port=${port}`] });
    const runs: (typeof lhr)[] = [];
    for (let i = 0; i < RUNS; i++) {
      const result = await lighthouse(`${server.url}/l/${demo.landing.slug}`, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'] });
      assert.ok(result, 'Lighthouse answered');
      runs.push(result.lhr);
    }
    const performance = (r: typeof lhr) => r.categories.performance!.score ?? 0;
    lhr = [...runs].sort((a, b) => performance(a) - performance(b))[Math.floor(RUNS / 2)]!;
    everyRun = runs.map((r) => `performance ${Math.round(performance(r) * 100)} (total blocking time ${Math.round(r.audits['total-blocking-time']!.numericValue!)} ms, benchmark index ${r.environment.benchmarkIndex})`).join('; ');
    const requests = (lhr.audits['network-requests']!.details as unknown as { items: NetworkRequest[] }).items;
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(
      `${ARTIFACTS}lighthouse-landing.json`,
      `${JSON.stringify(
        {
          lighthouse: lhr.lighthouseVersion,
          runs: everyRun,
          scores: Object.fromEntries(Object.entries(lhr.categories).map(([k, c]) => [k, c.score])),
          metrics: Object.fromEntries(['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'].map((id) => [id, lhr.audits[id]!.numericValue])),
          requests: requests.map((r) => ({ url: r.url.replace(server.url, ''), bytes: r.transferSize, type: r.resourceType })),
        },
        null,
        2,
      )}\n`,
    );
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('performance ≥ 95, accessibility 100, best practices ≥ 95, LCP ≤ 2.0 s', () => {
    const score = (id: string) => Math.round((lhr.categories[id]!.score ?? 0) * 100);
    const failing = Object.entries(lhr.audits)
      .filter(([, a]) => a.score !== null && a.score < 1 && !['informative', 'notApplicable', 'manual'].includes(a.scoreDisplayMode))
      .map(([id, a]) => `${id} ${a.score}`);
    assert.ok(score('performance') >= 95, `median run: performance ${score('performance')}; ${failing.join(', ')}. Every run: ${everyRun}`);
    assert.equal(score('accessibility'), 100, failing.join(', '));
    assert.ok(score('best-practices') >= 95, `best practices ${score('best-practices')}; ${failing.join(', ')}`);
    const lcp = lhr.audits['largest-contentful-paint']!.numericValue!;
    assert.ok(lcp <= 2000, `LCP ${Math.round(lcp)} ms (median run). Every run: ${everyRun}`);
  });

  test('no request goes to another host, the gallery comes from codrail, and HTML, CSS and script weigh ≤ 50 KB compressed', () => {
    const requests = (lhr.audits['network-requests']!.details as unknown as { items: NetworkRequest[] }).items;
    assert.deepEqual([...new Set(requests.map((r) => new URL(r.url).origin))], [server.url], 'every request is to the page’s own server');
    assert.ok(requests.filter((r) => r.resourceType === 'Image' && /\/img\/[\w-]{22}-\d+\.avif$/.test(r.url)).length >= 2, 'the cover and the gallery are hosted AVIF files');
    // The stylesheet is inline in the document; the one script is checkout.js.
    const code = requests.filter((r) => ['Document', 'Script', 'Stylesheet'].includes(r.resourceType)).reduce((sum, r) => sum + r.transferSize, 0);
    assert.ok(code > 0 && code <= 50 * 1024, `HTML, CSS and script: ${code} bytes`);
  });
});
