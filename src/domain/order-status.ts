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

/** A platform status as codrail's: the status it moves an order to (none: it moves nothing), and whether the platform's table knows it. */
export interface StatusMapping {
  to: OrderStatus | undefined;
  known: boolean;
}

/** How a raw status is compared: case, accents, surrounding space and `_` against ` ` do not matter ("En_Tránsito" = "EN TRANSITO"). */
export const statusKey = (raw: string): string =>
  raw
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[\s_]+/g, ' ')
    .trim();

/**
 * A platform's status table (each platform module declares one): raw string → codrail status, or
 * null for a status that is known and moves nothing (an incident, a label voided). A Map: the key
 * is the platform's text (issue 19 §5).
 */
export function statusTable(entries: Readonly<Record<string, OrderStatus | null>>): (raw: string) => StatusMapping {
  const table = new Map(Object.entries(entries).map(([raw, to]) => [statusKey(raw), to]));
  return (raw) => {
    const to = table.get(statusKey(raw));
    return { to: to ?? undefined, known: to !== undefined };
  };
}

/**
 * What a platform report does to an order: move it, keep it (same or no mapping), or refuse
 * (backwards). A platform saying it has the order (Dropi's PENDIENTE) is no confirmation: only the
 * buyer or a person confirms (issue 25 §2), so a report of `confirmed` moves a pending order nowhere
 * and the buyer is never told "confirmado" because a push went out.
 */
export function applyPlatformStatus(current: OrderStatus, target: OrderStatus | undefined): { to: OrderStatus; moved: boolean; refused: boolean } {
  if (!target || target === current || (target === 'confirmed' && current === 'pending')) return { to: current, moved: false, refused: false };
  if (!canMove(current, target)) return { to: current, moved: false, refused: true };
  return { to: target, moved: true, refused: false };
}
