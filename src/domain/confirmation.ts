// The buyer's confirmation of a cash-on-delivery order (issue 25): where it stands, who confirmed,
// what the buttons of the WhatsApp request carry, and the words the buyer reads. Pure: the
// use-case (src/use-cases/orders/confirmation.use-case.ts) reads and writes the order.
//
//   asked ──(no answer, wait)──▶ reminded ──(no answer, wait)──▶ call   (support calls the buyer)
//     │  ╲                          │
//     │   ╲─ text reply ─▶ replied (support reads it)
//     │
//     ├─ Corregir ─▶ correcting ──(page sent)──▶ answered (confirmed)
//     └─ Confirmar / Cancelar, or a person confirms or cancels ──▶ answered
/** A store's choice (update_store): ask every buyer on WhatsApp, or not. */
export const CONFIRMATION_MODES = ['off', 'whatsapp'] as const;
export type ConfirmationMode = (typeof CONFIRMATION_MODES)[number];

export const CONFIRMATION_STATES = ['asked', 'reminded', 'call', 'replied', 'correcting', 'answered'] as const;
export type ConfirmationState = (typeof CONFIRMATION_STATES)[number];

/** Who confirmed: the buyer (a tap, the correction page), support (a person or a tool), or the store's own automation. */
export type ConfirmedBy = 'buyer' | 'support' | 'store_policy';

/** The actor recorded on the events of a buyer's answer. */
export const BUYER_ACTOR = 'buyer';

export const confirmedByOf = (actor: string): ConfirmedBy => (actor === BUYER_ACTOR ? 'buyer' : actor === 'system' ? 'store_policy' : 'support');

/** States still waiting for the buyer (timers run) — a person may still confirm or cancel at any time. */
export const WAITING: ReadonlySet<ConfirmationState> = new Set(['asked', 'reminded', 'correcting']);

export const ANSWERS = ['confirm', 'cancel', 'correct'] as const;
export type Answer = (typeof ANSWERS)[number];

/** The request's quick-reply buttons, in order: what the buyer reads and the answer each carries. */
export const BUTTONS: readonly { answer: Answer; title: string }[] = [
  { answer: 'confirm', title: 'Confirmar pedido' },
  { answer: 'cancel', title: 'Cancelar' },
  { answer: 'correct', title: 'Corregir dirección' },
];

/** A button's payload: the answer and the order it is about (`confirm:<order id>`). */
export const buttonPayload = (answer: Answer, orderId: string): string => `${answer}:${orderId}`;

export function parsePayload(payload: string): { answer: Answer; orderId: string } | undefined {
  const m = /^(confirm|cancel|correct):([0-9a-f-]{36})$/.exec(payload);
  return m ? { answer: m[1] as Answer, orderId: m[2]! } : undefined;
}

/** The template keys of the request and its reminder (their text is fixed: Meta approves a template's text). */
export const CONFIRMATION_TEMPLATES = {
  confirmation_request:
    'Hola {nombre}, para enviar tu pedido necesitamos tu confirmación: {producto} por {total}, pago contra entrega, a {direccion}, {ciudad}. ¿Lo confirmas?',
  confirmation_reminder: '{nombre}, tu pedido de {producto} por {total} sigue esperando tu confirmación para salir hacia {ciudad}.',
} as const;
export type ConfirmationTemplate = keyof typeof CONFIRMATION_TEMPLATES;
export const isConfirmationTemplate = (name: string | null): name is ConfirmationTemplate => name !== null && Object.hasOwn(CONFIRMATION_TEMPLATES, name);

/** The cancel reason recorded when the buyer taps Cancelar. */
export const BUYER_CANCEL_REASON = 'buyer_declined';

/** What the buyer reads after answering, or answering again (texts within the 24-hour window a reply opens). */
export const REPLIES = {
  confirmed: (n: string) => `¡Gracias! Tu pedido ${n} quedó confirmado. Te avisaremos cuando salga.`,
  cancelled: (n: string) => `Listo, cancelamos tu pedido ${n}. No se enviará nada.`,
  correct: (n: string, url: string, hours: number) => `Corrige la dirección de tu pedido ${n} aquí: ${url} (el enlace sirve una vez y vence en ${hours} horas).`,
  alreadyConfirmed: (n: string) => `Tu pedido ${n} ya está confirmado; no hace falta hacer nada más. ¡Gracias!`,
  alreadyCancelled: (n: string) => `Tu pedido ${n} ya fue cancelado, así que no se enviará. Si lo quieres, haz un pedido nuevo.`,
  alreadyShipped: (n: string) => `Tu pedido ${n} ya va en camino; para cualquier cambio escríbenos y te ayudamos.`,
  tooLateToCancel: (n: string) => `Tu pedido ${n} ya salió hacia la transportadora; un asesor te contactará para ayudarte.`,
  noted: (n: string) => `Recibimos tu mensaje sobre el pedido ${n}; un asesor lo revisará pronto.`,
} as const;

/** Hours a correction link stays valid. */
export const CORRECTION_LINK_HOURS = 48;
