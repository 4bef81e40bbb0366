// A create-order body of the fulfillment platform contract (docs/fulfillment-platform.md), for the
// client and simulator tests.
import type { CreatePlatformOrder } from '../../src/platforms/generic/contract.ts';

export function platformOrderBody(ref: string, overrides: Partial<CreatePlatformOrder> = {}): CreatePlatformOrder {
  return {
    external_ref: ref,
    name: 'Ana',
    surname: 'Gómez',
    phone: '+573001234567',
    state: 'Antioquia',
    city: 'Medellín',
    city_code: '05001',
    address: 'Calle 10 # 43-12',
    neighborhood: 'El Poblado',
    notes: 'Portería',
    rate_type: 'CON RECAUDO',
    total_to_collect: 159900,
    currency: 'COP',
    products: [{ sku: 'FAJA-01', name: 'Faja', pack: '2x', quantity: 1, unit_price: 159900 }],
    ...overrides,
  };
}
