// 3 Pushes (issue 24 §1): the account's outbox (list_push_jobs) with counts per state, each push's
// state, attempts, next attempt and last error. `r` replays the selected failed or dead push, `R`
// every dead one after a y/n confirmation (replay_pushes); Enter opens the order.
import { useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import { useKeys } from '../components/keys.tsx';
import type { ScreenProps } from '../components/screen-props.ts';
import { SelectList } from '../components/select-list.tsx';
import { useLive } from '../components/use-terminal.ts';
import { terminalValue } from '../../domain/terminal-text.ts';

interface JobView {
  action: string;
  order_id: string;
  order_number: number;
  store_name: string;
  state: string;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  remote_id: string | null;
  waiting_for: string | null;
}

interface JobList {
  counts: Record<string, number>;
  backlog: { pending: number; oldest_pending_age_s: number | null };
  jobs: JobView[];
}

const STATES = ['', 'dead', 'failed', 'queued', 'held', 'in_flight', 'done'] as const;
const time = (iso: string | null) => (iso ? iso.slice(11, 19) : '-');

export function PushesScreen(props: ScreenProps) {
  const { session, text, width, height, color, active, refreshMs, onCapture, notify, openOrder } = props;
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [state, setState] = useState<(typeof STATES)[number]>('');
  const [confirming, setConfirming] = useState(false);
  useEffect(() => onCapture(confirming), [confirming, onCapture]);
  const live = useLive(() => session.invoke<JobList>('list_push_jobs', { limit: 100, ...(state && { state }) }), state, refreshMs, active);
  const jobs = live.data?.jobs;
  const keyOf = (j: JobView) => `${j.action}:${j.order_id}`;
  const current = jobs?.find((j) => keyOf(j) === selected) ?? jobs?.[0];

  const replay = async (input: Record<string, unknown>) => {
    try {
      const result = await session.invoke<{ replayed: number }>('replay_pushes', input);
      notify(result.replayed ? text.replayed(result.replayed) : text.nothingToReplay, result.replayed ? 'ok' : 'error');
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), 'error');
    }
    live.reload();
  };

  useKeys(
    (input, key) => {
      if (confirming) {
        setConfirming(false);
        if (input === 'y' || input === 's') void replay({ all_dead: true });
        return;
      }
      if (input === 's' || input === 'f') {
        setSelected(undefined);
        return setState((s) => STATES[(STATES.indexOf(s) + 1) % STATES.length]!);
      }
      if (input === 'R' && session.may('replay_pushes')) return setConfirming(true);
      if (!current) return;
      if (input === 'r' && session.may('replay_pushes')) void replay({ order_id: current.order_id });
      if (key.return) openOrder(current.order_id);
    },
    { isActive: active },
  );

  const data = live.data;
  if (!data) return <Text>{live.error ? terminalValue(live.error) : text.loading}</Text>;
  const counts = Object.entries(data.counts)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${s} ${n}`)
    .join(' · ');
  const err = Math.max(10, width - 62);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">{`${text.showing}: ${state || text.any} · ${counts || '0'}`}</Text>
      {confirming ? (
        <Text color={color ? 'yellow' : undefined}>{text.replayAllDead(data.counts.dead ?? 0)}</Text>
      ) : jobs!.length === 0 ? (
        <Text>{text.noPushes}</Text>
      ) : (
        <SelectList
          items={jobs!}
          keyOf={keyOf}
          line={(j) =>
            `${String(j.order_number).padEnd(6)} ${j.action.padEnd(6)} ${j.state.padEnd(9)} ${String(j.attempts).padStart(2)} ${time(j.next_attempt_at).padEnd(8)} ${terminalValue(j.store_name).slice(0, 14).padEnd(14)} ${terminalValue(j.last_error ?? j.waiting_for ?? j.remote_id ?? '').slice(0, err)}`
          }
          selected={current ? keyOf(current) : undefined}
          onSelect={setSelected}
          height={height - 1}
          width={width}
          active={active && !confirming}
          warn={(j) => j.state === 'dead' || j.state === 'failed'}
          color={color}
        />
      )}
    </Box>
  );
}
