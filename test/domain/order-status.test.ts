// The order state machine and the platform status mapping (SPEC 7, docs/fulfillment-platform.md
// "Statuses and how codrail maps them").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ORDER_STATUSES, applyPlatformStatus as applyTarget, canMove, statusKey, type OrderStatus } from '../../src/domain/order-status.ts';
import { PLATFORM_STATUSES } from '../../src/platforms/generic/contract.ts';
import { generic } from '../../src/platforms/generic/generic.ts';

/** The generic contract's table (src/platforms/generic), as the worker applies it. */
const statusFromPlatform = (raw: string) => generic.status(raw).to;
const applyPlatformStatus = (current: OrderStatus, raw: string) => applyTarget(current, statusFromPlatform(raw));

/** Every move the documented machine allows: forward along the chain, and cancelled from the early states. */
const ALLOWED: readonly (readonly [OrderStatus, OrderStatus])[] = [
  ['pending', 'confirmed'],
  ['pending', 'processing'],
  ['pending', 'shipped'],
  ['pending', 'cancelled'],
  ['confirmed', 'processing'],
  ['confirmed', 'shipped'],
  ['confirmed', 'cancelled'],
  ['processing', 'shipped'],
  ['processing', 'cancelled'],
  ['shipped', 'delivered'],
  ['shipped', 'returned'],
];

const allowed = (from: OrderStatus, to: OrderStatus) => ALLOWED.some(([f, t]) => f === from && t === to);

test('canMove allows every forward step of the chain and cancelling from pending, confirmed or processing', () => {
  for (const [from, to] of ALLOWED) assert.equal(canMove(from, to), true, `${from} → ${to}`);
});

test('canMove refuses every other pair of statuses, staying put included', () => {
  let refused = 0;
  for (const from of ORDER_STATUSES)
    for (const to of ORDER_STATUSES)
      if (!allowed(from, to)) {
        assert.equal(canMove(from, to), false, `${from} → ${to}`);
        refused++;
      }
  assert.equal(refused, ORDER_STATUSES.length ** 2 - ALLOWED.length);
});

test('canMove refuses going backwards', () => {
  for (const [from, to] of [
    ['confirmed', 'pending'],
    ['processing', 'confirmed'],
    ['processing', 'pending'],
    ['shipped', 'processing'],
    ['shipped', 'confirmed'],
    ['delivered', 'shipped'],
    ['returned', 'shipped'],
  ] as const)
    assert.equal(canMove(from, to), false, `${from} → ${to}`);
});

test('canMove refuses any move out of delivered, returned or cancelled', () => {
  for (const from of ['delivered', 'returned', 'cancelled'] as const)
    for (const to of ORDER_STATUSES) assert.equal(canMove(from, to), false, `${from} → ${to}`);
});

test('canMove refuses cancelling an order once it has shipped or finished', () => {
  for (const from of ['shipped', 'delivered', 'returned'] as const) assert.equal(canMove(from, 'cancelled'), false, from);
});

test('canMove refuses delivering or returning an order that never shipped', () => {
  for (const from of ['pending', 'confirmed', 'processing'] as const) {
    assert.equal(canMove(from, 'delivered'), false, `${from} → delivered`);
    assert.equal(canMove(from, 'returned'), false, `${from} → returned`);
  }
});

test('statusFromPlatform maps each platform status of the contract to its codrail status', () => {
  const expected: Record<(typeof PLATFORM_STATUSES)[number], OrderStatus | undefined> = {
    PENDIENTE: 'confirmed',
    GUIA_GENERADA: 'processing',
    EN_TRANSITO: 'shipped',
    EN_REPARTO: 'shipped',
    NOVEDAD: undefined,
    ENTREGADO: 'delivered',
    DEVOLUCION: 'returned',
    CANCELADO: 'cancelled',
  };
  assert.deepEqual(Object.keys(expected).sort(), [...PLATFORM_STATUSES].sort(), 'the table covers every contract status');
  for (const raw of PLATFORM_STATUSES) assert.equal(statusFromPlatform(raw), expected[raw], raw);
});

test('statusFromPlatform ignores letter case, accents, surrounding whitespace and _ against a space', () => {
  assert.equal(statusFromPlatform('EN TRANSITO'), 'shipped');
  assert.equal(statusFromPlatform('Devolución'), 'returned');
  assert.equal(statusKey(' en_tránsito '), 'EN TRANSITO');
  assert.equal(statusFromPlatform('en_transito'), 'shipped');
  assert.equal(statusFromPlatform('En_Reparto'), 'shipped');
  assert.equal(statusFromPlatform('  entregado '), 'delivered');
  assert.equal(statusFromPlatform('\tGuia_Generada\n'), 'processing');
  assert.equal(statusFromPlatform(' cancelado'), 'cancelled');
  assert.equal(statusFromPlatform('Pendiente  '), 'confirmed');
});

test('statusFromPlatform answers undefined for NOVEDAD, unknown, empty and prototype-named statuses; only NOVEDAD is known', () => {
  assert.deepEqual(generic.status(' novedad '), { to: undefined, known: true });
  assert.deepEqual(generic.status('SOMETHING_NEW'), { to: undefined, known: false });
  for (const raw of ['NOVEDAD', ' novedad ', 'ENTREGADA', 'EN-TRANSITO', 'DELIVERED', 'shipped', '', '   ', 'constructor', '__proto__', 'toString', 'hasOwnProperty'])
    assert.equal(statusFromPlatform(raw), undefined, JSON.stringify(raw));
});

test('applyPlatformStatus moves an order forward along the machine', () => {
  assert.deepEqual(applyPlatformStatus('confirmed', 'GUIA_GENERADA'), { to: 'processing', moved: true, refused: false });
  assert.deepEqual(applyPlatformStatus('pending', 'EN_TRANSITO'), { to: 'shipped', moved: true, refused: false });
  assert.deepEqual(applyPlatformStatus('processing', 'en_reparto'), { to: 'shipped', moved: true, refused: false });
  assert.deepEqual(applyPlatformStatus('shipped', 'ENTREGADO'), { to: 'delivered', moved: true, refused: false });
  assert.deepEqual(applyPlatformStatus('shipped', 'DEVOLUCION'), { to: 'returned', moved: true, refused: false });
  assert.deepEqual(applyPlatformStatus('confirmed', 'CANCELADO'), { to: 'cancelled', moved: true, refused: false });
});

test('applyPlatformStatus takes a platform’s PENDIENTE for no confirmation: a pending order stays pending (only the buyer or a person confirms)', () => {
  assert.deepEqual(applyPlatformStatus('pending', 'PENDIENTE'), { to: 'pending', moved: false, refused: false });
  assert.deepEqual(applyPlatformStatus('processing', 'PENDIENTE'), { to: 'processing', moved: false, refused: true }, 'backwards is still refused');
});

test('applyPlatformStatus keeps the status when the report maps to it already or maps to nothing', () => {
  assert.deepEqual(applyPlatformStatus('confirmed', 'PENDIENTE'), { to: 'confirmed', moved: false, refused: false });
  assert.deepEqual(applyPlatformStatus('shipped', 'EN_REPARTO'), { to: 'shipped', moved: false, refused: false });
  assert.deepEqual(applyPlatformStatus('shipped', 'NOVEDAD'), { to: 'shipped', moved: false, refused: false });
  assert.deepEqual(applyPlatformStatus('pending', 'SOMETHING_NEW'), { to: 'pending', moved: false, refused: false });
  assert.deepEqual(applyPlatformStatus('delivered', 'NOVEDAD'), { to: 'delivered', moved: false, refused: false });
});

test('applyPlatformStatus refuses reports that go backwards, leave a terminal status or cancel a shipped order', () => {
  const refused = (current: OrderStatus) => ({ to: current, moved: false, refused: true });
  assert.deepEqual(applyPlatformStatus('shipped', 'PENDIENTE'), refused('shipped'));
  assert.deepEqual(applyPlatformStatus('processing', 'PENDIENTE'), refused('processing'));
  assert.deepEqual(applyPlatformStatus('shipped', 'GUIA_GENERADA'), refused('shipped'));
  assert.deepEqual(applyPlatformStatus('delivered', 'DEVOLUCION'), refused('delivered'));
  assert.deepEqual(applyPlatformStatus('returned', 'ENTREGADO'), refused('returned'));
  assert.deepEqual(applyPlatformStatus('cancelled', 'EN_TRANSITO'), refused('cancelled'));
  assert.deepEqual(applyPlatformStatus('shipped', 'CANCELADO'), refused('shipped'));
  assert.deepEqual(applyPlatformStatus('pending', 'ENTREGADO'), refused('pending'));
});
