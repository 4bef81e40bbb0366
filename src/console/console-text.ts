// What the console says, in Spanish and English (issue 24 §5): `--lang`, else the locale.
export type ConsoleLang = 'es' | 'en';

export const CONSOLE_TEXT = {
  es: {
    title: 'codrail consola',
    orders: 'Pedidos',
    review: 'Revisión',
    noOrders: 'No hay pedidos.',
    noReview: 'Ningún pedido espera revisión de ciudad.',
    loading: 'Cargando…',
    keysList: '↑↓/j k mover · Enter abrir · 1-2 pantallas · ? ayuda · q salir',
    keysDetail: 'Esc volver · ? ayuda · q salir',
    help: 'Teclas',
    helpRows: [
      ['1 2', 'cambiar de pantalla'],
      ['↑ ↓  j k', 'mover la selección'],
      ['Enter', 'abrir el pedido'],
      ['Esc', 'volver'],
      ['?', 'mostrar u ocultar esta ayuda'],
      ['q', 'salir'],
    ] as const,
    buyer: 'Comprador',
    address: 'Dirección',
    typed: 'escrita',
    shipped: 'de envío',
    pack: 'Paquete',
    status: 'Estado',
    push: 'Envío a la plataforma',
    remote: 'id remoto',
    reviewFlag: 'ciudad por revisar',
    timeline: 'Historia',
    sandbox: 'prueba',
  },
  en: {
    title: 'codrail console',
    orders: 'Orders',
    review: 'Review',
    noOrders: 'No orders.',
    noReview: 'No order awaits a city review.',
    loading: 'Loading…',
    keysList: '↑↓/j k move · Enter open · 1-2 screens · ? help · q quit',
    keysDetail: 'Esc back · ? help · q quit',
    help: 'Keys',
    helpRows: [
      ['1 2', 'switch screens'],
      ['↑ ↓  j k', 'move the selection'],
      ['Enter', 'open the order'],
      ['Esc', 'go back'],
      ['?', 'show or hide this help'],
      ['q', 'quit'],
    ] as const,
    buyer: 'Buyer',
    address: 'Address',
    typed: 'as typed',
    shipped: 'as shipped',
    pack: 'Pack',
    status: 'Status',
    push: 'Push to the platform',
    remote: 'remote id',
    reviewFlag: 'city to review',
    timeline: 'Timeline',
    sandbox: 'sandbox',
  },
} as const;

export type ConsoleText = (typeof CONSOLE_TEXT)[ConsoleLang];

/** `--lang`, else the locale (config's terminalPreferences): Spanish for es_*, English otherwise. */
export function consoleLang(flag: string | undefined, locale: string): ConsoleLang {
  if (flag === 'es' || flag === 'en') return flag;
  return /^es\b|^es_/i.test(locale) ? 'es' : 'en';
}
