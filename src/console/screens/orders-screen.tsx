// 1 Orders (issue 24 §1, §2): every order of the session's account, newest first, live. `/` searches
// by number, name, phone or city; `f` filters (status, store, review, push, sandbox, days, region,
// product); `n` takes a phone order. Each is list_orders or create_order: the screen only asks.
import { useEffect, useMemo, useState } from 'react';
import { Box, Text } from 'ink';
import { useKeys } from '../components/keys.tsx';
import type { ScreenProps } from '../components/screen-props.ts';
import { SelectList } from '../components/select-list.tsx';
import { useLive } from '../components/use-terminal.ts';
import { Form } from '../components/form.tsx';
import { PhoneOrderForm } from './phone-order-form.tsx';
import { terminalValue } from '../../domain/terminal-text.ts';
import { ORDER_STATUSES } from '../../domain/order-status.ts';
import { CONFIRMATION_STATES } from '../../domain/confirmation.ts';

export interface OrderRowView {
  id: string;
  store_id: string;
  order_number: number;
  status: string;
  needs_review: boolean;
  sandbox: boolean;
  nombre: string;
  telefono: string;
  departamento: string;
  ciudad: string;
  pack: string;
  total_price: number;
  currency: string;
  fulfillment_status: string | null;
  risk_score: number;
  confirmation_state: string | null;
  created_at: string;
}

export interface StoreView {
  id: string;
  name: string;
  country: string;
}

const shown = (value: unknown) => terminalValue(String(value ?? '-'));

/** The confirmation flag: C the buyer did not answer (call them), R the buyer wrote back, ? still asked. */
const CONFIRMATION_FLAG: Record<string, string> = { call: 'C', replied: 'R', asked: '?', reminded: '?', correcting: '?' };

/** One order on one line: flags (review !, sandbox s, confirmation C/R/?), number, status, return risk, buyer, city, pack and total. */
export function orderLine(o: OrderRowView, width: number): string {
  const flags = `${o.needs_review ? '!' : ' '}${o.sandbox ? 's' : ' '}${(o.confirmation_state && CONFIRMATION_FLAG[o.confirmation_state]) ?? ' '}`;
  const city = Math.max(12, width - 62);
  return `${flags} ${String(o.order_number).padEnd(6)} ${o.status.padEnd(10)} ${String(o.risk_score).padStart(3)} ${shown(o.nombre).slice(0, 16).padEnd(16)} ${shown(`${o.ciudad}, ${o.departamento}`).slice(0, city).padEnd(city)} ${o.pack.padEnd(3)} ${o.total_price} ${o.currency}`;
}

/** The list filters as list_orders takes them; the keys are its input fields. */
export type OrderFilters = Record<string, string>;

const filterInput = (f: OrderFilters, query: string): Record<string, unknown> => ({
  ...(f.status && { status: [f.status] }),
  ...(f.store_id && { store_id: f.store_id }),
  ...(f.needs_review && { needs_review: f.needs_review === 'yes' }),
  ...(f.sandbox && { sandbox: f.sandbox === 'yes' }),
  ...(f.fulfillment_state && { fulfillment_state: f.fulfillment_state }),
  ...(f.created_from && { created_from: f.created_from }),
  ...(f.created_to && { created_to: f.created_to }),
  ...(f.departamento && { departamento: f.departamento }),
  ...(f.product_id && { product_id: f.product_id }),
  ...(f.confirmation && { confirmation: f.confirmation }),
  ...(f.risk_min && { risk_min: Number(f.risk_min) }),
  ...(f.sort && { sort: f.sort }),
  ...(query && { query }),
});

export function OrdersScreen(props: ScreenProps & { stores: readonly StoreView[] }) {
  const { session, text, width, height, color, active, refreshMs, onCapture, notify, openOrder, stores } = props;
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [filters, setFilters] = useState<OrderFilters>({});
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState<'list' | 'search' | 'filters' | 'new'>('list');
  const [typed, setTyped] = useState('');
  const [products, setProducts] = useState<{ id: string; name: string }[]>([]);
  useEffect(() => onCapture(mode !== 'list'), [mode, onCapture]);

  const input = useMemo(() => filterInput(filters, query), [filters, query]);
  const live = useLive(() => session.invoke<{ items: OrderRowView[] }>('list_orders', { ...input, limit: 100 }), JSON.stringify(input), refreshMs, active);
  const visible = live.data?.items;

  useKeys(
    (key, k) => {
      if (mode === 'search') {
        if (k.escape) {
          setMode('list');
          setTyped('');
          return setQuery('');
        }
        if (k.return) {
          setMode('list');
          return setQuery(typed.trim().length >= 2 ? typed.trim() : '');
        }
        if (k.backspace || k.delete) return setTyped((t) => t.slice(0, -1));
        if (key && !k.ctrl && !k.meta) setTyped((t) => t + key);
        return;
      }
      if (mode !== 'list') return;
      if (key === '/') {
        setTyped(query);
        return setMode('search');
      }
      if (key === 'f') {
        if (session.may('list_products')) void session.invoke<{ items: { id: string; name: string }[] }>('list_products', { limit: 100 }).then((p) => setProducts(p.items), () => setProducts([]));
        return setMode('filters');
      }
      if (key === 'n' && session.may('create_order')) return setMode('new');
      // The call queue: buyers who did not answer their confirmation, riskiest first.
      if (key === 'l')
        return setFilters((f) => {
          const { confirmation: _c, sort: _s, ...rest } = f;
          return f.confirmation === 'call' ? rest : { ...rest, confirmation: 'call', sort: 'risk' };
        });
      if (k.escape && (query || Object.keys(filters).length)) {
        setQuery('');
        setFilters({});
      }
    },
    { isActive: active },
  );

  if (mode === 'new') return <PhoneOrderForm {...props} stores={stores} onDone={(id) => (setMode('list'), id && openOrder(id))} />;
  if (mode === 'filters') {
    const any = { value: '', label: text.any };
    return (
      <Form
        title={text.filtersTitle}
        fields={[
          { name: 'status', label: text.fields.status, options: [any, ...ORDER_STATUSES.map((s) => ({ value: s, label: s }))], initial: filters.status ?? '' },
          { name: 'store_id', label: text.fields.store, options: [any, ...stores.map((s) => ({ value: s.id, label: s.name }))], initial: filters.store_id ?? '' },
          { name: 'needs_review', label: text.fields.review, options: [any, { value: 'yes', label: text.yes }, { value: 'no', label: text.no }], initial: filters.needs_review ?? '' },
          { name: 'fulfillment_state', label: text.fields.push, options: [any, ...['not_pushed', 'pushed', 'push_failed'].map((s) => ({ value: s, label: s }))], initial: filters.fulfillment_state ?? '' },
          { name: 'sandbox', label: text.fields.sandbox, options: [any, { value: 'yes', label: text.yes }, { value: 'no', label: text.no }], initial: filters.sandbox ?? '' },
          { name: 'created_from', label: text.fields.from, initial: filters.created_from ?? '', hint: 'YYYY-MM-DD' },
          { name: 'created_to', label: text.fields.to, initial: filters.created_to ?? '', hint: 'YYYY-MM-DD' },
          { name: 'departamento', label: text.fields.departamento, initial: filters.departamento ?? '' },
          { name: 'product_id', label: text.fields.product, options: [any, ...products.map((p) => ({ value: p.id, label: p.name }))], initial: filters.product_id ?? '' },
          { name: 'confirmation', label: text.confirmation, options: [any, ...CONFIRMATION_STATES.map((s) => ({ value: s, label: text.confirmationStates[s] ?? s }))], initial: filters.confirmation ?? '' },
          { name: 'risk_min', label: text.fields.riskMin, initial: filters.risk_min ?? '', hint: '0-100' },
          { name: 'sort', label: text.fields.sort, options: [{ value: '', label: text.newest }, { value: 'risk', label: text.riskiest }], initial: filters.sort ?? '' },
        ]}
        onSubmit={async (values) => {
          const next = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== '').map(([k, v]) => [k, v.trim()]));
          // The operation checks the filters (a day that is no date, a region too long) before they apply.
          await session.invoke('list_orders', { ...filterInput(next, query), limit: 1 });
          setFilters(next);
          setMode('list');
        }}
        onCancel={() => setMode('list')}
        text={text}
        width={width}
        color={color}
      />
    );
  }

  const described = [
    ...Object.entries(filters).map(([k, v]) => `${k}=${k === 'store_id' ? (stores.find((s) => s.id === v)?.name ?? v) : k === 'product_id' ? (products.find((p) => p.id === v)?.name ?? v) : v}`),
    ...(query ? [`"${query}"`] : []),
  ];
  const top = mode === 'search' ? `/${typed}▏` : described.length ? `${text.filtered}: ${described.join(' · ')}` : '';
  return (
    <Box flexDirection="column">
      {top && (
        <Text wrap="truncate-end" color={color ? 'cyan' : undefined}>
          {shown(top)}
        </Text>
      )}
      {visible === undefined ? (
        <Text>{live.error ? shown(live.error) : text.loading}</Text>
      ) : visible.length === 0 ? (
        <Text>{described.length ? text.noMatch : text.noOrders}</Text>
      ) : (
        <SelectList
          items={visible}
          keyOf={(o) => o.id}
          line={(o) => orderLine(o, width)}
          selected={selected}
          onSelect={setSelected}
          onOpen={(o) => openOrder(o.id)}
          height={height - (top ? 1 : 0)}
          width={width}
          active={active && mode === 'list'}
          warn={(o) => o.needs_review}
          color={color}
        />
      )}
    </Box>
  );
}
