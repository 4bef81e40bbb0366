// Issue 25 §3, as it will be judged: on a synthetic history — buyers who refused before, who order
// again and again, whose town nobody can place, whose address has no number — the orders the score
// ranks in the top fifth hold at least half of the later refusals, and every score lists its reasons.
// The later refusals are drawn from each buyer's hidden kind with a seeded random, never from the
// score; the score sees only what codrail sees (the account's orders, the city match, the address).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openShop, orderBody, postOrder, type Shop } from '../helpers/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { OPEN_LIMITS, liveHeaders, nextPhone } from '../api/orders/order-kit.ts';
import { seeded } from '../helpers/wait.ts';
import { testSeed, underSeed } from '../helpers/seed.ts';
import { RISK_BASE, bareAddress, returnRisk } from '../../src/domain/return-risk.ts';

type Kind = 'good' | 'refuser' | 'new' | 'repeat' | 'lost_city' | 'bare';
/**
 * How many buyers of each kind, and how likely their next order comes back refused: about a fifth of
 * the buyers show a sign, and the whole draw refuses about a sixth of the parcels — the shape COD
 * sellers in the region report (a fifth to a third come back, most of them from a few buyers). Enough buyers that the draw's luck barely moves the share caught
 * (it is 61% on average over seeds; under half in about 1 seed of 100).
 */
const KINDS: Record<Kind, { buyers: number; refusal: number }> = {
  good: { buyers: 160, refusal: 0.04 },
  new: { buyers: 140, refusal: 0.12 },
  refuser: { buyers: 24, refusal: 0.7 },
  repeat: { buyers: 20, refusal: 0.45 },
  lost_city: { buyers: 16, refusal: 0.4 },
  bare: { buyers: 20, refusal: 0.45 },
};

describe('the return-risk score ranks a synthetic history', () => {
  const seed = testSeed(3);
  let server: TestServer;
  let shop: Shop;
  const data = async (res: Response): Promise<any> => {
    const body = (await res.json()) as { data: unknown };
    assert.ok(res.ok, JSON.stringify(body));
    return body.data;
  };
  const api = (path: string, body?: unknown) =>
    fetch(`${server.url}/api/v1${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${shop.secretKey}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  const order = async (over: Record<string, unknown>) => {
    const res = await postOrder(server.url, orderBody(shop, over), liveHeaders(shop));
    const body = (await res.json()) as { data: { id: string } };
    assert.equal(res.status, 200, JSON.stringify(body));
    return body.data.id;
  };
  const move = async (id: string, ...statuses: string[]) => {
    for (const status of statuses) await data(await api(`/orders/${id}/status`, { status }));
  };

  before(async () => {
    ({ server, shop } = await openShop(OPEN_LIMITS));
  });
  after(() => server.close());

  test('the top fifth holds at least half of the later refusals; every score lists its reasons', () =>
    underSeed(seed, async () => {
      const random = seeded(seed);
      const later: { id: string; kind: Kind; refused: boolean }[] = [];
      for (const [kind, { buyers, refusal }] of Object.entries(KINDS) as [Kind, (typeof KINDS)[Kind]][]) {
        for (let b = 0; b < buyers; b++) {
          const telefono = nextPhone();
          // What the account knows before: a good buyer received an order, a refuser sent one back
          // (another pack, so the next order is not taken for a retry of this one).
          const earlier = { telefono, pack: '2x', unit_price: 90000, total_price: 180000 };
          if (kind === 'good') await move(await order(earlier), 'confirmed', 'shipped', 'delivered');
          if (kind === 'refuser') await move(await order(earlier), 'confirmed', 'shipped', 'returned');
          // A repeat buyer ordered a few hours ago too (another pack: not a retry of the same order).
          if (kind === 'repeat') await order({ telefono, pack: '2x', unit_price: 90000, total_price: 180000 });
          const id = await order({
            telefono,
            ...(kind === 'lost_city' && { departamento: 'Antioquia', ciudad: 'Villa Esperanza del Norte' }),
            ...(kind === 'bare' && { direccion: 'frente al parque principal' }),
          });
          later.push({ id, kind, refused: random() < refusal });
        }
      }
      const refusals = later.filter((o) => o.refused).length;
      assert.ok(refusals >= 20, `the draw gives enough refusals to judge (${refusals})`);

      // The riskiest fifth, as list_orders ranks them (sort=risk, paged).
      const ranked: { id: string; risk_score: number }[] = [];
      let cursor: string | undefined;
      do {
        const page = await data(await api(`/orders?sort=risk&status=pending&limit=100${cursor ? `&cursor=${cursor}` : ''}`));
        ranked.push(...page.items);
        cursor = page.next_cursor;
      } while (cursor);
      for (let i = 1; i < ranked.length; i++) assert.ok(ranked[i - 1]!.risk_score >= ranked[i]!.risk_score, 'riskiest first');
      // The orders whose outcome is drawn (a repeat buyer's earlier order is pending too, and listed).
      const judged = new Set(later.map((o) => o.id));
      const ordered = ranked.filter((o) => judged.has(o.id));
      assert.equal(ordered.length, later.length);
      const top = new Set(ordered.slice(0, Math.ceil(later.length / 5)).map((o) => o.id));
      const caught = later.filter((o) => o.refused && top.has(o.id)).length;
      assert.ok(caught * 2 >= refusals, `the top fifth holds ${caught} of ${refusals} later refusals`);

      // Every score is its base plus the points of the reasons it lists, and a risky kind says why.
      const why: Record<Kind, string | undefined> = { good: 'delivered_before', refuser: 'refused_before', repeat: 'repeat_orders', lost_city: 'city_unmatched', bare: 'bare_address', new: undefined };
      for (const o of later) {
        const detail = await data(await api(`/orders/${o.id}`));
        const sum = RISK_BASE + detail.risk.reasons.reduce((s: number, r: { points: number }) => s + r.points, 0);
        assert.equal(detail.risk.score, Math.max(0, Math.min(100, sum)), JSON.stringify(detail.risk));
        for (const r of detail.risk.reasons) assert.ok(r.text.length > 0);
        const expected = why[o.kind];
        if (expected) assert.ok(detail.risk.reasons.some((r: { code: string }) => r.code === expected), `${o.kind}: ${JSON.stringify(detail.risk.reasons)}`);
        // The hour is the one fact the suite does not choose: between 00:00 and 05:00 in the store's
        // timezone every order carries "placed at night" (the rule's own tests cover it).
        else assert.deepEqual(detail.risk.reasons.filter((r: { code: string }) => r.code !== 'night_hour'), [], 'a first order with nothing unusual has no other reason');
      }
    }));

  test('risk_min filters, and a refusal raises the score of the same buyer’s open order as it arrives', async () => {
    const telefono = nextPhone();
    const first = await order({ telefono });
    const second = await order({ telefono, pack: '2x', unit_price: 90000, total_price: 180000 });
    const before = (await data(await api(`/orders/${second}`))).risk;
    await move(first, 'confirmed', 'shipped', 'returned');
    const after = (await data(await api(`/orders/${second}`))).risk;
    assert.ok(after.score > before.score, `${before.score} → ${after.score}`);
    assert.ok(after.reasons.some((r: { code: string }) => r.code === 'refused_before'));
    const high = await data(await api(`/orders?risk_min=${after.score}&limit=100`));
    assert.ok(high.items.every((o: { risk_score: number }) => o.risk_score >= after.score));
    assert.ok(high.items.some((o: { id: string }) => o.id === second));
    const bad = await api('/orders?risk_min=101');
    assert.equal(bad.status, 400);
    const mixed = await api(`/orders?sort=risk&cursor=${Buffer.from(JSON.stringify(['2026-01-01', 'x'])).toString('base64url')}`);
    assert.equal(mixed.status, 400, 'a newest-first cursor is not a risk cursor');
  });
});

describe('returnRisk, the rule', () => {
  const facts = {
    history: { delivered: 0, returned: 0, cancelled: 0, unanswered: 0 },
    recent: 0,
    city: 'confident' as const,
    direccion: 'Calle 10 # 43-12',
    units: 1,
    quantity: 1,
    localHour: 14,
    confirmation: null,
    confirmedBy: null,
  };

  test('a first ordinary order is the base with no reasons; each sign adds its points, clamped to 0–100', () => {
    assert.deepEqual(returnRisk(facts), { score: RISK_BASE, reasons: [] });
    const worst = returnRisk({ ...facts, history: { delivered: 0, returned: 3, cancelled: 2, unanswered: 2 }, recent: 3, city: 'review', direccion: 'centro', units: 6, quantity: 3, localHour: 2, confirmation: 'call' });
    assert.equal(worst.score, 100);
    assert.equal(returnRisk({ ...facts, history: { delivered: 4, returned: 0, cancelled: 0, unanswered: 0 }, confirmedBy: 'buyer' }).score, 0);
  });

  test('a buyer’s confirmation lowers it more than support’s; silence raises it', () => {
    const base = returnRisk({ ...facts, recent: 1 }).score;
    assert.ok(returnRisk({ ...facts, recent: 1, confirmedBy: 'buyer' }).score < returnRisk({ ...facts, recent: 1, confirmedBy: 'support' }).score);
    assert.ok(returnRisk({ ...facts, recent: 1, confirmedBy: 'support' }).score < base);
    assert.ok(returnRisk({ ...facts, recent: 1, confirmation: 'call' }).score > base);
  });

  test('a bare address has no house number, or is a few words', () => {
    for (const a of ['frente al parque', 'centro', 'Barrio La Floresta casa azul']) assert.ok(bareAddress(a), a);
    for (const a of ['Calle 10 # 43-12', 'Av. Juárez 123', 'Mz B Lt 4']) assert.ok(!bareAddress(a), a);
  });
});
