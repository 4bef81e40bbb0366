// The support console (issue 24; SPEC 12): an ink app over the account operations of a session
// (console-session.ts). The screens (../screens) are switched with number keys and listed in the
// header, only those the session's scopes allow; Enter opens an order over its screen, which stays
// mounted underneath so Esc returns to the same selection; ? lists every key, q quits; the status
// line shows the current keys, or for a few seconds the outcome of the last action. The layout
// follows the terminal's size as it changes, and colour is only an aid (NO_COLOR turns it off).
import { useCallback, useEffect, useState, type ReactElement } from 'react';
import { Box, Text, useApp } from 'ink';
import { KeysRoot, useKeys } from './keys.tsx';
import type { ConsoleSession } from '../console-session.ts';
import type { ConsoleText } from '../console-text.ts';
import type { ScreenProps } from './screen-props.ts';
import { useTerminalSize } from './use-terminal.ts';
import { OrdersScreen, type StoreView } from '../screens/orders-screen.tsx';
import { ReviewScreen } from '../screens/review-screen.tsx';
import { PushesScreen } from '../screens/pushes-screen.tsx';
import { KeysScreen } from '../screens/keys-screen.tsx';
import { WhatsappScreen } from '../screens/whatsapp-screen.tsx';
import { WebhooksScreen } from '../screens/webhooks-screen.tsx';
import { NumbersScreen } from '../screens/numbers-screen.tsx';
import { OrderDetail, detailKeys } from '../screens/order-detail.tsx';
import { terminalValue } from '../../domain/terminal-text.ts';

type Screen = 'orders' | 'review' | 'pushes' | 'keys' | 'whatsapp' | 'webhooks' | 'numbers';

/** Each screen, its number and the operation a session must be allowed to see it. */
const SCREENS: readonly { key: string; screen: Screen; needs: string }[] = [
  { key: '1', screen: 'orders', needs: 'list_orders' },
  { key: '2', screen: 'review', needs: 'resolve_order_city' },
  { key: '3', screen: 'pushes', needs: 'list_push_jobs' },
  // Keys are store settings: only a session that may change them sees them (issue 24 §6).
  { key: '4', screen: 'keys', needs: 'revoke_api_key' },
  { key: '5', screen: 'whatsapp', needs: 'list_whatsapp_messages' },
  { key: '6', screen: 'webhooks', needs: 'list_webhook_deliveries' },
  { key: '7', screen: 'numbers', needs: 'get_account_stats' },
];

/** Rows the app keeps for itself: the header, a blank line, the message line and the keys line. */
const CHROME_ROWS = 4;

export interface ConsoleAppProps {
  session: ConsoleSession;
  text: ConsoleText;
  /** How often lists reload (a new order shows within two seconds). */
  refreshMs?: number;
  color?: boolean;
}

export function ConsoleApp(props: ConsoleAppProps) {
  return (
    <KeysRoot>
      <Console {...props} />
    </KeysRoot>
  );
}

function Console({ session, text, refreshMs = 1000, color = true }: ConsoleAppProps) {
  const { exit } = useApp();
  const size = useTerminalSize();
  const screens = SCREENS.filter((s) => session.may(s.needs));
  const [screen, setScreen] = useState<Screen>(screens[0]?.screen ?? 'orders');
  const [detail, setDetail] = useState<string | undefined>(undefined);
  const [help, setHelp] = useState(false);
  const [capturing, setCapturing] = useState(false);
  const [message, setMessage] = useState<{ text: string; kind: 'ok' | 'error' } | undefined>(undefined);
  const [stores, setStores] = useState<StoreView[]>([]);

  useEffect(() => {
    session.invoke<{ items: StoreView[] }>('list_stores', { limit: 100 }).then(
      (page) => setStores(page.items),
      () => setStores([]),
    );
  }, [session]);
  // A message stays five seconds, then the keys come back.
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(undefined), 5000);
    return () => clearTimeout(timer);
  }, [message]);

  const notify = useCallback((text: string, kind: 'ok' | 'error' = 'ok') => setMessage({ text, kind }), []);
  const onCapture = useCallback((on: boolean) => setCapturing(on), []);
  const openOrder = useCallback((id: string) => setDetail(id), []);

  useKeys((input, key) => {
    if (help) {
      if (key.escape || input === '?' || input === 'q') setHelp(false);
      return;
    }
    if (capturing) return;
    if (input === 'q') return exit();
    if (input === '?') return setHelp(true);
    const next = screens.find((s) => s.key === input);
    if (next) {
      setDetail(undefined);
      setScreen(next.screen);
    }
  });

  const width = size.columns;
  const height = size.rows - CHROME_ROWS;
  const common: Omit<ScreenProps, 'active'> = { session, text, width, height, color, refreshMs, onCapture, notify, openOrder };
  const shown = (s: Screen) => s === screen;
  const activeOn = (s: Screen) => shown(s) && !detail && !help;
  // Each screen stays mounted once opened (its selection and filters survive a visit elsewhere).
  const [visited, setVisited] = useState<ReadonlySet<Screen>>(new Set([screen]));
  useEffect(() => setVisited((v) => (v.has(screen) ? v : new Set([...v, screen]))), [screen]);
  const mount = (s: Screen, node: (props: ScreenProps) => ReactElement) =>
    visited.has(s) || shown(s) ? (
      <Box key={s} display={shown(s) && !detail && !help ? 'flex' : 'none'} flexDirection="column">
        {node({ ...common, active: activeOn(s) })}
      </Box>
    ) : null;

  // One line of nested Text, cut at the width: flex items would shrink each tab's name instead.
  // When every name and who is signed in do not fit, the other screens show their number only.
  const who = ` ${terminalValue(session.who)}`;
  const tab = (s: (typeof screens)[number]) => ` ${s.key} ${text.screens[s.screen]} `;
  const compact = text.title.length + screens.reduce((n, s) => n + tab(s).length, 0) + who.length > width;
  const header = (
    <Text wrap="truncate-end">
      <Text bold>{text.title}</Text>
      {screens.map((s) => (
        <Text key={s.key} inverse={shown(s.screen) && !detail} color={shown(s.screen) && color ? 'green' : undefined}>
          {compact && !shown(s.screen) ? ` ${s.key} ` : tab(s)}
        </Text>
      ))}
      <Text dimColor>{who}</Text>
    </Text>
  );

  const keys = detail ? detailKeys({ session, text }) : text.keys[screen];
  return (
    <Box flexDirection="column" width={width} height={size.rows}>
      {header}
      <Box flexDirection="column" marginTop={1} height={height} overflow="hidden">
        {help && <Help text={text} />}
        {detail && !help && <OrderDetail {...common} active={!help} orderId={detail} onBack={() => setDetail(undefined)} />}
        {mount('orders', (p) => <OrdersScreen {...p} stores={stores} />)}
        {mount('review', (p) => <ReviewScreen {...p} stores={stores} />)}
        {mount('pushes', (p) => <PushesScreen {...p} />)}
        {mount('keys', (p) => <KeysScreen {...p} stores={stores} />)}
        {mount('whatsapp', (p) => <WhatsappScreen {...p} />)}
        {mount('webhooks', (p) => <WebhooksScreen {...p} />)}
        {mount('numbers', (p) => <NumbersScreen {...p} stores={stores} />)}
      </Box>
      <Text wrap="truncate-end" color={message && color ? (message.kind === 'error' ? 'red' : 'green') : undefined}>
        {message ? terminalValue(message.text) : ' '}
      </Text>
      <Text dimColor wrap="truncate-end">
        {keys}
      </Text>
    </Box>
  );
}

function Help({ text }: { text: ConsoleText }) {
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>{text.help}</Text>
      {text.helpRows.map(([keys, what]) => (
        <Text key={keys} wrap="truncate-end">
          {`${keys.padEnd(12)} ${what}`}
        </Text>
      ))}
    </Box>
  );
}
