// An order's detail (issue 24 §3): buyer, address as typed and as shipped, pack and price, status,
// push state and remote id, its WhatsApp messages and its timeline, live. The actions are account
// operations, offered only when this session may run them: c confirm, x cancel with a reason,
// n note, e correct the buyer, r resolve the city, p push (or replay a failed or dead push).
import { useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import { useKeys } from '../components/keys.tsx';
import type { ScreenProps } from '../components/screen-props.ts';
import { useLive } from '../components/use-terminal.ts';
import { Form, type FormField } from '../components/form.tsx';
import { CityPicker } from '../components/city-picker.tsx';
import { citySuggestions, regionSuggestions } from '../components/suggest.ts';
import { terminalValue } from '../../domain/terminal-text.ts';
import { CANCEL_REASONS } from '../../use-cases/orders/order-life.schemas.ts';

export interface OrderView {
  id: string;
  order_number: number;
  store_id: string;
  status: string;
  needs_review: boolean;
  sandbox: boolean;
  nombre: string;
  telefono: string;
  direccion: string;
  barrio?: string | null;
  referencia?: string | null;
  departamento: string;
  ciudad: string;
  departamento_input?: string | null;
  ciudad_input?: string | null;
  pack: string;
  quantity: number;
  total_price: number;
  currency: string;
  city_review: { reason: string | null; candidates: { region: string; city: string }[] } | null;
  risk: { score: number; band: string; reasons: { points: number; text: string }[] };
  confirmation: { state: string | null; confirmed_by: string | null };
  fulfillment: { state: string; attempts: number; remote_id: string | null; last_error?: string | null; next_attempt_at?: string | null } | null;
  events: { type: string; actor: string; created_at: string; data?: unknown }[];
}

interface MessageView {
  template: string | null;
  status: string;
  created_at: string;
  last_error: string | null;
}

type Modal = 'cancel' | 'note' | 'buyer' | 'city' | undefined;

const shown = (value: unknown) => terminalValue(String(value ?? '-'));

export function OrderDetail({ orderId, onBack, ...props }: ScreenProps & { orderId: string; onBack: () => void }) {
  const { session, text, width, height, color, active, refreshMs, onCapture, notify } = props;
  const [modal, setModal] = useState<Modal>(undefined);
  const live = useLive(
    async () => {
      const order = await session.invoke<OrderView>('get_order', { order_id: orderId });
      const [messages, store] = await Promise.all([
        session.may('list_whatsapp_messages') ? session.invoke<{ items: MessageView[] }>('list_whatsapp_messages', { order_id: orderId, limit: 5 }).then((p) => p.items) : Promise.resolve([]),
        session.invoke<{ country: string }>('get_store', { store_id: order.store_id }).catch(() => ({ country: '' })),
      ]);
      return { order, messages, country: store.country };
    },
    orderId,
    refreshMs,
  );
  useEffect(() => onCapture(modal !== undefined), [modal, onCapture]);

  const act = async (name: string, input: Record<string, unknown>, done: string) => {
    try {
      await session.invoke(name, input);
      notify(done, 'ok');
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), 'error');
    }
    live.reload();
  };
  const closeWith = (message: string) => {
    setModal(undefined);
    notify(message, 'ok');
    live.reload();
  };

  const data = live.data;
  const o = data?.order;
  useKeys(
    (input, key) => {
      if (key.escape) return onBack();
      if (!o) return;
      if (input === 'c' && session.may('update_order_status')) void act('update_order_status', { order_id: o.id, status: 'confirmed' }, text.confirmed(o.order_number));
      if (input === 'x' && session.may('cancel_order')) setModal('cancel');
      if (input === 'n' && session.may('add_order_note')) setModal('note');
      if (input === 'e' && session.may('update_order_buyer')) setModal('buyer');
      if (input === 'r' && session.may('resolve_order_city')) setModal('city');
      if (input === 'p') {
        const state = o.fulfillment?.state;
        if ((state === 'failed' || state === 'dead') && session.may('replay_pushes')) void act('replay_pushes', { order_id: o.id }, text.replayed(1));
        else if (session.may('push_order_to_fulfillment')) void act('push_order_to_fulfillment', { order_id: o.id }, text.pushed(o.order_number));
      }
    },
    { isActive: active && modal === undefined },
  );

  if (!data || !o) return <Text>{live.error ? shown(live.error) : text.loading}</Text>;

  const close = () => setModal(undefined);
  if (modal === 'city')
    return <CityPicker session={session} text={text} order={o} candidates={o.city_review?.candidates ?? []} country={data.country} width={width} color={color} onDone={closeWith} onCancel={close} />;
  if (modal === 'cancel')
    return (
      <Form
        title={text.cancelTitle(o.order_number)}
        fields={[
          { name: 'reason', label: text.reason, options: CANCEL_REASONS.map((r) => ({ value: r, label: text.cancelReasons[r] ?? r })) },
          { name: 'note', label: text.note },
        ]}
        onSubmit={async (v) => {
          await session.invoke('cancel_order', { order_id: o.id, reason: v.reason, ...(v.note?.trim() && { note: v.note }) });
          closeWith(text.cancelled(o.order_number));
        }}
        onCancel={close}
        text={text}
        width={width}
        color={color}
      />
    );
  if (modal === 'note')
    return (
      <Form
        title={text.noteTitle(o.order_number)}
        fields={[{ name: 'text', label: text.note }]}
        onSubmit={async (v) => {
          await session.invoke('add_order_note', { order_id: o.id, text: v.text });
          closeWith(text.noted(o.order_number));
        }}
        onCancel={close}
        text={text}
        width={width}
        color={color}
      />
    );
  if (modal === 'buyer') {
    const fields: FormField[] = [
      { name: 'nombre', label: text.fields.nombre, initial: o.nombre },
      { name: 'telefono', label: text.fields.telefono, initial: o.telefono },
      { name: 'departamento', label: text.fields.departamento, initial: o.departamento, suggest: (value) => regionSuggestions(session, data.country, value) },
      { name: 'ciudad', label: text.fields.ciudad, initial: o.ciudad, suggest: (value, values) => citySuggestions(session, data.country, values.departamento ?? '', value), hint: text.suggestHint },
      { name: 'direccion', label: text.fields.direccion, initial: o.direccion },
      { name: 'barrio', label: text.fields.barrio, initial: o.barrio ?? '' },
      { name: 'referencia', label: text.fields.referencia, initial: o.referencia ?? '' },
    ];
    return (
      <Form
        title={text.buyerTitle(o.order_number)}
        fields={fields}
        onSubmit={async (v) => {
          // Only what changed is sent: the operation canonicalizes a new city again.
          const before: Record<string, string> = { nombre: o.nombre, telefono: o.telefono, departamento: o.departamento, ciudad: o.ciudad, direccion: o.direccion, barrio: o.barrio ?? '', referencia: o.referencia ?? '' };
          const changed = Object.fromEntries(Object.entries(v).filter(([k, value]) => value !== before[k]));
          if (Object.keys(changed).length === 0) return closeWith(text.unchanged);
          await session.invoke('update_order_buyer', { order_id: o.id, ...changed });
          closeWith(text.buyerUpdated(o.order_number));
        }}
        onCancel={close}
        text={text}
        width={width}
        color={color}
      />
    );
  }

  const typed = o.ciudad_input ?? o.ciudad;
  const label = (l: string) => l.padEnd(22).slice(0, 22);
  const line = (l: string, value: string, warn = false) => (
    <Text wrap="truncate-end" color={warn && color ? 'yellow' : undefined}>
      <Text bold>{label(l)}</Text>
      {value}
    </Text>
  );
  const f = o.fulfillment;
  const push = f ? `${f.state} · ${text.attempts} ${f.attempts}${f.remote_id ? ` · ${text.remote} ${shown(f.remote_id)}` : ''}${f.last_error ? ` · ${shown(f.last_error)}` : ''}` : o.sandbox ? text.neverPushed : '-';
  const fixed = 11 + (o.city_review ? 1 : 0) + Math.min(2, data.messages.length) + 1;
  const risk = `${o.risk.score} (${text.riskBands[o.risk.band] ?? o.risk.band})${o.risk.reasons.length ? `: ${o.risk.reasons.map((r) => `${shown(r.text)} ${r.points > 0 ? '+' : ''}${r.points}`).join(' · ')}` : ''}`;
  const c = o.confirmation;
  const confirmation = [c.state ? (text.confirmationStates[c.state] ?? c.state) : text.notAsked, c.confirmed_by && `${text.confirmedBy} ${text.confirmers[c.confirmed_by] ?? c.confirmed_by}`].filter(Boolean).join(' · ');
  const events = o.events.slice(-Math.max(1, height - fixed));
  return (
    <Box flexDirection="column" width={width}>
      {line(`#${o.order_number}`, `${shown(o.status)}${o.needs_review ? ` · ${text.reviewFlag}` : ''}${o.sandbox ? ` · ${text.sandbox}` : ''}`)}
      {line(text.buyer, `${shown(o.nombre)} · ${shown(o.telefono)}`)}
      {line(`${text.address} (${text.shipped})`, `${shown(o.direccion)}, ${shown(o.ciudad)}, ${shown(o.departamento)}`)}
      {line(`${text.address} (${text.typed})`, `${shown(typed)}, ${shown(o.departamento_input ?? o.departamento)}`)}
      {o.city_review && line(text.why, shown(o.city_review.reason ?? ''), true)}
      {line(text.pack, `${shown(o.pack)} × ${shown(o.quantity)} · ${shown(o.total_price)} ${shown(o.currency)}`)}
      {line(text.risk, risk, o.risk.band === 'high')}
      {line(text.confirmation, confirmation, c.state === 'call' || c.state === 'replied')}
      {line(text.push, push, f?.state === 'dead' || f?.state === 'failed')}
      {line(text.whatsapp, data.messages.length ? '' : '-')}
      {data.messages.slice(0, 2).map((m, i) => (
        <Text key={i} wrap="truncate-end">
          {`  ${shown(m.created_at).slice(0, 16)} ${shown(m.template ?? 'text')} ${shown(m.status)}${m.last_error ? ` · ${shown(m.last_error)}` : ''}`}
        </Text>
      ))}
      <Text bold>{text.timeline}</Text>
      {events.map((e, i) => (
        <Text key={i} wrap="truncate-end">
          {`  ${shown(e.created_at).slice(0, 19).replace('T', ' ')} ${shown(e.type)} · ${shown(e.actor)}${summary(e.data)}`}
        </Text>
      ))}
    </Box>
  );
}

/** What an event says in a few words: a note's text, a cancellation's reason, a status's move. */
function summary(data: unknown): string {
  if (typeof data !== 'object' || data === null) return '';
  const d = data as Record<string, unknown>;
  const said = [d.text, d.reason, typeof d.from === 'string' && typeof d.to === 'string' ? `${d.from} → ${d.to}` : undefined, d.note].find((x) => typeof x === 'string' && x !== '');
  return said ? ` · ${shown(said)}` : '';
}

/** The detail's keys for the status line: only the actions this session may run. */
export function detailKeys(props: Pick<ScreenProps, 'session' | 'text'>): string {
  const { session, text } = props;
  const keys = [
    session.may('update_order_status') && text.detailAction.confirm,
    session.may('cancel_order') && text.detailAction.cancel,
    session.may('add_order_note') && text.detailAction.note,
    session.may('update_order_buyer') && text.detailAction.buyer,
    session.may('resolve_order_city') && text.detailAction.city,
    session.may('push_order_to_fulfillment') && text.detailAction.push,
  ].filter(Boolean);
  return [...keys, text.backKey].join(' · ');
}
