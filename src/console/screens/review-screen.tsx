// 2 Review (issue 24 §1): the orders whose city the matcher would not guess, oldest last like every
// list, with the matcher's reason and the catalog candidates of the selected one. Enter picks the
// city (resolve_order_city) and the held push is released; `o` opens the order.
import { useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import { useKeys } from '../components/keys.tsx';
import type { ScreenProps } from '../components/screen-props.ts';
import { SelectList } from '../components/select-list.tsx';
import { useLive } from '../components/use-terminal.ts';
import { CityPicker } from '../components/city-picker.tsx';
import { orderLine, type OrderRowView, type StoreView } from './orders-screen.tsx';
import type { OrderView } from './order-detail.tsx';
import { terminalValue } from '../../domain/terminal-text.ts';

export function ReviewScreen(props: ScreenProps & { stores: readonly StoreView[] }) {
  const { session, text, width, height, color, active, refreshMs, onCapture, notify, openOrder, stores } = props;
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [picking, setPicking] = useState(false);
  useEffect(() => onCapture(picking), [picking, onCapture]);
  const live = useLive(() => session.invoke<{ items: OrderRowView[] }>('list_orders', { needs_review: true, limit: 100 }), 'review', refreshMs, active);
  const rows = live.data?.items;
  const current = rows?.find((o) => o.id === selected) ?? rows?.[0];
  const [detail, setDetail] = useState<OrderView | undefined>(undefined);
  useEffect(() => {
    setDetail(undefined);
    if (!current) return;
    let gone = false;
    session.invoke<OrderView>('get_order', { order_id: current.id }).then(
      (o) => !gone && setDetail(o),
      () => undefined,
    );
    return () => {
      gone = true;
    };
  }, [current?.id, session]);

  useKeys(
    (input, key) => {
      if (!current) return;
      if (key.return && session.may('resolve_order_city')) setPicking(true);
      if (input === 'o') openOrder(current.id);
    },
    { isActive: active && !picking },
  );

  if (rows === undefined) return <Text>{live.error ? terminalValue(live.error) : text.loading}</Text>;
  if (rows.length === 0) return <Text>{text.noReview}</Text>;
  if (picking && current && detail)
    return (
      <CityPicker
        session={session}
        text={text}
        order={detail}
        candidates={detail.city_review?.candidates ?? []}
        country={stores.find((s) => s.id === current.store_id)?.country ?? ''}
        width={width}
        color={color}
        onDone={(message) => {
          setPicking(false);
          notify(message, 'ok');
          live.reload();
        }}
        onCancel={() => setPicking(false)}
      />
    );
  const review = detail?.id === current?.id ? detail?.city_review : undefined;
  const panel = 4;
  return (
    <Box flexDirection="column">
      <SelectList
        items={rows}
        keyOf={(o) => o.id}
        line={(o) => orderLine(o, width)}
        selected={current?.id}
        onSelect={setSelected}
        height={Math.max(3, height - panel)}
        width={width}
        active={active && !picking}
        color={color}
      />
      <Box flexDirection="column" marginTop={1}>
        <Text wrap="truncate-end" color={color ? 'yellow' : undefined}>
          {review ? terminalValue(`${text.why}: ${review.reason ?? ''}`) : ' '}
        </Text>
        <Text wrap="truncate-end">
          {review ? terminalValue(`${text.candidates}: ${review.candidates.length ? review.candidates.map((c, i) => `${i + 1} ${c.city} (${c.region})`).join(' · ') : text.noCandidates}`) : ' '}
        </Text>
      </Box>
    </Box>
  );
}
