// The order state machine (SPEC 7, issue 4): pending → confirmed → processing → shipped →
// delivered | returned; cancelled from the early states. Platform statuses map onto it
// (docs/fulfillment-platform.md); a report that would go backwards is not applied.
export const ORDER_STATUSES = ['pending', 'confirmed', 'processing', 'shipped', 'delivered', 'returned', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

const NEXT: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ['confirmed', 'processing', 'shipped', 'cancelled'],
  confirmed: ['processing', 'shipped', 'cancelled'],
  processing: ['shipped', 'cancelled'],
  shipped: ['delivered', 'returned'],
  delivered: [],
  returned: [],
  cancelled: [],
};

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT[from].includes(to);
}

// A Map: the key is the platform's text (issue 19 §5).
const FROM_PLATFORM: ReadonlyMap<string, OrderStatus> = new Map<string, OrderStatus>([
  ['PENDIENTE', 'confirmed'],
  ['GUIA_GENERADA', 'processing'],
  ['EN_TRANSITO', 'shipped'],
  ['EN_REPARTO', 'shipped'],
  ['ENTREGADO', 'delivered'],
  ['DEVOLUCION', 'returned'],
  ['CANCELADO', 'cancelled'],
]);

/** codrail's status for a platform status, or undefined when it moves nothing (NOVEDAD, unknown). */
export const statusFromPlatform = (raw: string): OrderStatus | undefined => FROM_PLATFORM.get(raw.trim().toUpperCase());

/** What a platform report does to an order: move it, keep it (same or no mapping), or refuse (backwards). */
export function applyPlatformStatus(current: OrderStatus, raw: string): { to: OrderStatus; moved: boolean; refused: boolean } {
  const target = statusFromPlatform(raw);
  if (!target || target === current) return { to: current, moved: false, refused: false };
  if (!canMove(current, target)) return { to: current, moved: false, refused: true };
  return { to: target, moved: true, refused: false };
}
