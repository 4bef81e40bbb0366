// The support console (issue 24; SPEC 12): an ink app over the account operations of a session
// (console-session.ts). Screens are switched with number keys and listed in the header; lists
// refresh on their own and keep the selection by order id; Enter opens an order, Esc goes back, ?
// shows every key, q quits. Rows are cut to the terminal's width (80×24 without wrapping), and
// colour is only an aid (NO_COLOR turns it off).
import { useCallback, useEffect, useRef, useState } from 'react';
import { Box, Text, useApp, useInput, useStdout } from 'ink';
import type { ConsoleSession } from '../console-session.ts';
import type { ConsoleText } from '../console-text.ts';
import { terminalValue } from '../../domain/terminal-text.ts';

export interface OrderRowView {
  id: string;
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
}

type Screen = 'orders' | 'review';

const SCREENS: readonly { key: string; screen: Screen; label: (t: ConsoleText) => string }[] = [
  { key: '1', screen: 'orders', label: (t) => t.orders },
  { key: '2', screen: 'review', label: (t) => t.review },
];

/** A stored value as the terminal shows it: control and bidi characters escaped (issue 19 §3). */
const shown = (value: unknown) => terminalValue(String(value ?? '-'));

export interface ConsoleAppProps {
  session: ConsoleSession;
  text: ConsoleText;
  /** How often lists reload (a new order shows within two seconds). */
  refreshMs?: number;
  color?: boolean;
}

export function ConsoleApp({ session, text, refreshMs = 1000, color = true }: ConsoleAppProps) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const width = Math.max(40, stdout?.columns ?? 80);
  const [screen, setScreen] = useState<Screen>('orders');
  const [rows, setRows] = useState<OrderRowView[] | undefined>(undefined);
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [detail, setDetail] = useState<Record<string, unknown> | undefined>(undefined);
  const [help, setHelp] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const screenRef = useRef(screen);
  screenRef.current = screen;

  const load = useCallback(async () => {
    const wanted = screenRef.current;
    try {
      const page = await session.invoke<{ items: OrderRowView[] }>('list_orders', { limit: 100, ...(wanted === 'review' && { needs_review: true }) });
      if (screenRef.current !== wanted) return;
      setRows(page.items);
      // The selection stays on its order while the list moves under it.
      setSelected((current) => (current && page.items.some((o) => o.id === current) ? current : page.items[0]?.id));
      setProblem(undefined);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  }, [session]);

  useEffect(() => {
    setRows(undefined);
    void load();
    const timer = setInterval(() => void load(), refreshMs);
    return () => clearInterval(timer);
  }, [screen, load, refreshMs]);

  const open = async (id: string) => {
    try {
      setDetail(await session.invoke<Record<string, unknown>>('get_order', { order_id: id }));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };

  useInput((input, key) => {
    if (input === 'q') return exit();
    if (input === '?') return setHelp((h) => !h);
    if (key.escape) {
      if (help) return setHelp(false);
      return setDetail(undefined);
    }
    const next = SCREENS.find((s) => s.key === input);
    if (next) {
      setDetail(undefined);
      setSelected(undefined);
      return setScreen(next.screen);
    }
    if (detail || !rows || rows.length === 0) return;
    const at = Math.max(0, rows.findIndex((o) => o.id === selected));
    if (key.downArrow || input === 'j') setSelected(rows[Math.min(rows.length - 1, at + 1)]!.id);
    if (key.upArrow || input === 'k') setSelected(rows[Math.max(0, at - 1)]!.id);
    if (key.return && rows[at]) void open(rows[at]!.id);
  });

  const paint = (c: string) => (color ? c : undefined);
  const header = (
    <Box>
      <Text bold>{text.title}</Text>
      <Text> </Text>
      {SCREENS.map((s) => (
        <Text key={s.key} inverse={s.screen === screen && !detail} color={s.screen === screen ? paint('green') : undefined}>
          {` ${s.key} ${s.label(text)} `}
        </Text>
      ))}
      <Text dimColor> {shown(session.who)}</Text>
    </Box>
  );

  let body;
  if (help) body = <Help text={text} />;
  else if (detail) body = <Detail order={detail} text={text} width={width} />;
  else if (rows === undefined) body = <Text>{text.loading}</Text>;
  else if (rows.length === 0) body = <Text>{screen === 'review' ? text.noReview : text.noOrders}</Text>;
  else {
    const at = Math.max(0, rows.findIndex((o) => o.id === selected));
    const visible = 18;
    const start = Math.min(Math.max(0, at - visible + 1), Math.max(0, rows.length - visible));
    body = (
      <Box flexDirection="column">
        {rows.slice(start, start + visible).map((o) => (
          <Text key={o.id} inverse={o.id === selected} wrap="truncate-end" color={o.needs_review ? paint('yellow') : undefined}>
            {row(o, o.id === selected, width)}
          </Text>
        ))}
      </Box>
    );
  }

  return (
    <Box flexDirection="column" width={width}>
      {header}
      <Box flexDirection="column" marginTop={1} minHeight={19}>
        {body}
      </Box>
      {problem && (
        <Text color={paint('red')} wrap="truncate-end">
          {shown(problem)}
        </Text>
      )}
      <Text dimColor wrap="truncate-end">
        {detail ? text.keysDetail : text.keysList}
      </Text>
    </Box>
  );
}

/**
 * One order on one line: the selection mark (visible without colour), review and sandbox flags,
 * number, status, buyer, city, pack and total.
 */
function row(o: OrderRowView, selected: boolean, width: number): string {
  const flags = `${selected ? '›' : ' '}${o.needs_review ? '!' : ' '}${o.sandbox ? 's' : ' '}`;
  const line = `${flags} ${String(o.order_number).padEnd(6)} ${o.status.padEnd(10)} ${shown(o.nombre).slice(0, 20).padEnd(20)} ${shown(`${o.ciudad}, ${o.departamento}`).slice(0, 24).padEnd(24)} ${o.pack.padEnd(3)} ${o.total_price} ${o.currency}`;
  return line.slice(0, width);
}

function Help({ text }: { text: ConsoleText }) {
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>{text.help}</Text>
      {text.helpRows.map(([keys, what]) => (
        <Text key={keys}>
          {keys.padEnd(10)} {what}
        </Text>
      ))}
    </Box>
  );
}

function Detail({ order, text, width }: { order: Record<string, unknown>; text: ConsoleText; width: number }) {
  const o = order as Record<string, any>;
  const events = ((o.events ?? []) as { type: string; actor: string; created_at: string }[]).slice(-6);
  const line = (label: string, value: string) => (
    <Text wrap="truncate-end">
      <Text bold>{label.padEnd(22)}</Text>
      {value.slice(0, width - 23)}
    </Text>
  );
  return (
    <Box flexDirection="column">
      {line(`#${o.order_number}`, `${shown(o.status)}${o.needs_review ? ` · ${text.reviewFlag}` : ''}${o.sandbox ? ` · ${text.sandbox}` : ''}`)}
      {line(text.buyer, `${shown(o.nombre)} · ${shown(o.telefono)}`)}
      {line(`${text.address} (${text.shipped})`, `${shown(o.direccion)}, ${shown(o.ciudad)}, ${shown(o.departamento)}`)}
      {line(`${text.address} (${text.typed})`, `${shown(o.ciudad_input ?? o.ciudad)}, ${shown(o.departamento_input ?? o.departamento)}`)}
      {line(text.pack, `${shown(o.pack)} × ${shown(o.quantity)} · ${shown(o.total_price)} ${shown(o.currency)}`)}
      {line(text.push, `${shown(o.fulfillment?.state ?? '-')}${o.fulfillment?.remote_id ? ` · ${text.remote} ${shown(o.fulfillment.remote_id)}` : ''}`)}
      <Text bold>{text.timeline}</Text>
      {events.map((e, i) => (
        <Text key={i} wrap="truncate-end">
          {`  ${shown(e.created_at).slice(0, 19)} ${shown(e.type)} ${shown(e.actor)}`.slice(0, width)}
        </Text>
      ))}
    </Box>
  );
}
