// WhatsApp message templates (MCP-TOOLS.md §6.10; issue 12): fixed template keys, one per order
// event that may message the buyer, and the catalog's placeholders, filled from the order.
export const WHATSAPP_EVENTS = ['order_created', 'order_confirmed', 'order_shipped', 'order_delivered'] as const;
export type WhatsappEvent = (typeof WHATSAPP_EVENTS)[number];

export const PLACEHOLDERS = ['nombre', 'producto', 'total', 'ciudad', 'tracking'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

/** What a store sends until it writes its own texts (Spanish, the buyers' language). */
export const DEFAULT_TEMPLATES: Readonly<Record<WhatsappEvent, string>> = {
  order_created: 'Hola {nombre}, recibimos tu pedido de {producto} por {total}. Lo enviamos a {ciudad} y pagas al recibirlo.',
  order_confirmed: '¡{nombre}, tu pedido de {producto} está confirmado! Pronto sale hacia {ciudad}.',
  order_shipped: '{nombre}, tu pedido va en camino (guía {tracking}). Ten listo {total} en efectivo para el mensajero.',
  order_delivered: '¡Gracias por tu compra, {nombre}! Esperamos que disfrutes tu {producto}.',
};

const TOKEN = /\{([^{}]*)\}/g;

/** Placeholders a text names that do not exist (`{precio}`): the template would send them raw. */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(TOKEN)].map((m) => m[1]!).filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
}

/** The text with each known placeholder replaced by its value. */
export function renderTemplate(text: string, values: Readonly<Record<Placeholder, string>>): string {
  return text.replace(TOKEN, (whole, name: string) => ((PLACEHOLDERS as readonly string[]).includes(name) ? values[name as Placeholder] : whole));
}

/** The placeholders a text names, in order of appearance: a Cloud API template's body parameters. */
export function placeholderOrder(text: string): Placeholder[] {
  return [...text.matchAll(TOKEN)].map((m) => m[1]!).filter((name): name is Placeholder => (PLACEHOLDERS as readonly string[]).includes(name));
}

/** The order statuses that message the buyer, and the event (template key) each one sends. */
export const EVENT_OF_STATUS: Readonly<Partial<Record<string, WhatsappEvent>>> = {
  confirmed: 'order_confirmed',
  shipped: 'order_shipped',
  delivered: 'order_delivered',
};

export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'cancelled'] as const;

/** The Cloud API template language codes sent with template messages (the defaults are Spanish). */
export const TEMPLATE_LANGUAGE = 'es';
