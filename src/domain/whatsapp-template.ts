// WhatsApp message templates (MCP-TOOLS.md §6.10; issue 12): fixed template keys, one per order
// event that may message the buyer, and the catalog's placeholders, filled from the order.
export const WHATSAPP_EVENTS = ['order_created', 'order_confirmed', 'order_shipped', 'order_delivered'] as const;
export type WhatsappEvent = (typeof WHATSAPP_EVENTS)[number];

export const PLACEHOLDERS = ['nombre', 'producto', 'total', 'ciudad', 'direccion', 'tracking'] as const;
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

const isPlaceholder = (name: string): name is Placeholder => (PLACEHOLDERS as readonly string[]).includes(name);

/**
 * A value that ends with the full stop the text puts right after it loses its own: "Pronto sale
 * hacia {ciudad}." with "Bogotá, D.C." reads "Bogotá, D.C.", never "D.C.." (issue 25 §5).
 */
const fitted = (value: string, next: string | undefined): string => (next === '.' && value.endsWith('.') ? value.slice(0, -1) : value);

/** The text with each known placeholder replaced by its value. */
export function renderTemplate(text: string, values: Readonly<Record<Placeholder, string>>): string {
  return text.replace(TOKEN, (whole, name: string, offset: number) => (isPlaceholder(name) ? fitted(values[name], text[offset + whole.length]) : whole));
}

/** The values of a template's body parameters, in order, each fitted to the text around it as renderTemplate does. */
export function templateParameters(text: string, values: Readonly<Record<Placeholder, string>>): string[] {
  return [...text.matchAll(TOKEN)].filter((m) => isPlaceholder(m[1]!)).map((m) => fitted(values[m[1] as Placeholder], text[m.index + m[0].length]));
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
