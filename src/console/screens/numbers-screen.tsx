// 7 Numbers (issue 25 §4): what a seller watches, per store, over the last 7, 30 or 90 days
// (get_account_stats): how buyers answered their WhatsApp confirmation — the rate, the median time
// to confirm, how many wait in the call queue — and delivered versus returned per return-risk band.
// `d` changes the period.
import { useState } from 'react';
import { Box, Text } from 'ink';
import { useKeys } from '../components/keys.tsx';
import type { ScreenProps } from '../components/screen-props.ts';
import { useLive } from '../components/use-terminal.ts';
import type { StoreView } from './orders-screen.tsx';
import { terminalValue } from '../../domain/terminal-text.ts';
import { RISK_BANDS } from '../../domain/return-risk.ts';

interface StatsView {
  totals: {
    orders: number;
    return_rate: number | null;
    buyer_confirmation: { asked: number; by_buyer: number; by_support: number; cancelled: number; unanswered: number; rate: number | null; median_minutes: number | null };
    by_risk: Record<string, { orders: number; delivered: number; returned: number; return_rate: number | null }>;
  };
}

const PERIODS = [30, 7, 90] as const;
const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const pct = (rate: number | null) => (rate === null ? '-' : `${Math.round(rate * 100)}%`);
/** One line of the risk table: the band, then right-aligned columns. */
const row = (cells: readonly string[]) => `  ${cells[0]!.padEnd(8)}${cells.slice(1).map((c) => c.padStart(12)).join('')}`;

export function NumbersScreen(props: ScreenProps & { stores: readonly StoreView[] }) {
  const { session, text, width, height, active, refreshMs, stores } = props;
  const [period, setPeriod] = useState<(typeof PERIODS)[number]>(30);
  // A day more on each side: each store reads its days in its own timezone.
  const to = day(Date.now() + DAY_MS);
  const from = day(Date.now() - period * DAY_MS);
  const live = useLive(
    () => Promise.all(stores.map(async (s) => ({ store: s, stats: await session.invoke<StatsView>('get_account_stats', { from, to, store_id: s.id }) }))),
    `${period}:${stores.map((s) => s.id).join(',')}`,
    // Numbers move slowly: read them less often than the lists.
    refreshMs * 5,
    active,
  );
  useKeys(
    (input) => {
      if (input === 'd') setPeriod((p) => PERIODS[(PERIODS.indexOf(p) + 1) % PERIODS.length]!);
    },
    { isActive: active },
  );
  const rows = live.data;
  if (!rows) return <Text>{live.error ? terminalValue(live.error) : text.loading}</Text>;
  const n = text.numbers;
  const lines: { text: string; bold?: boolean }[] = [{ text: n.period(period) }];
  for (const { store, stats } of rows) {
    const c = stats.totals.buyer_confirmation;
    lines.push({ text: '' }, { text: `${terminalValue(store.name)} · ${n.orders(stats.totals.orders)} · ${n.returned} ${pct(stats.totals.return_rate)}`, bold: true });
    // Two short lines, so the call queue and the time to confirm stay on screen at 80 columns.
    if (c.asked === 0) lines.push({ text: `  ${n.notAsking}` });
    else
      lines.push(
        { text: `  ${n.asked(c.asked)} · ${n.byBuyer} ${pct(c.rate)} (${c.by_buyer}) · ${n.bySupport} ${c.by_support}` },
        { text: `  ${n.cancelled} ${c.cancelled} · ${n.toCall} ${c.unanswered} · ${n.median} ${c.median_minutes === null ? '-' : `${c.median_minutes} min`}` },
      );
    lines.push({ text: row(n.riskHeader) });
    for (const band of RISK_BANDS) {
      const b = stats.totals.by_risk[band]!;
      lines.push({ text: row([text.riskBands[band] ?? band, String(b.orders), String(b.delivered), String(b.returned), pct(b.return_rate)]) });
    }
  }
  return (
    <Box flexDirection="column" width={width}>
      {lines.slice(0, height).map((l, i) => (
        <Text key={i} bold={l.bold} wrap="truncate-end">
          {l.text || ' '}
        </Text>
      ))}
    </Box>
  );
}
