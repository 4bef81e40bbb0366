// 5 WhatsApp (issue 24 §1): the account's WhatsApp messages, newest first (list_whatsapp_messages),
// with their status and error; `s` cycles the status filter, Enter opens the order.
import { useState } from 'react';
import { Box, Text } from 'ink';
import { useKeys } from '../components/keys.tsx';
import type { ScreenProps } from '../components/screen-props.ts';
import { SelectList } from '../components/select-list.tsx';
import { useLive } from '../components/use-terminal.ts';
import { terminalValue } from '../../domain/terminal-text.ts';

interface MessageView {
  id: string;
  order_id: string;
  to: string;
  template: string | null;
  status: string;
  last_error: string | null;
  created_at: string;
}

const STATUSES = ['', 'failed', 'queued', 'sent', 'delivered', 'read', 'cancelled'] as const;

export function WhatsappScreen(props: ScreenProps) {
  const { session, text, width, height, color, active, refreshMs, openOrder } = props;
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('');
  const live = useLive(() => session.invoke<{ items: MessageView[] }>('list_whatsapp_messages', { limit: 100, ...(status && { status }) }), status, refreshMs, active);
  const rows = live.data?.items;
  const current = rows?.find((m) => m.id === selected) ?? rows?.[0];
  useKeys(
    (input, key) => {
      if (input === 's' || input === 'f') return setStatus((s) => STATUSES[(STATUSES.indexOf(s) + 1) % STATUSES.length]!);
      if (key.return && current) openOrder(current.order_id);
    },
    { isActive: active },
  );
  if (!rows) return <Text>{live.error ? terminalValue(live.error) : text.loading}</Text>;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">{`${text.showing}: ${status || text.any}`}</Text>
      {rows.length === 0 ? (
        <Text>{text.noMessages}</Text>
      ) : (
        <SelectList
          items={rows}
          keyOf={(m) => m.id}
          line={(m) =>
            `${terminalValue(m.created_at).slice(0, 16).replace('T', ' ')} ${terminalValue(m.to).padEnd(14)} ${terminalValue(m.template ?? 'text').slice(0, 18).padEnd(18)} ${m.status.padEnd(10)} ${terminalValue(m.last_error ?? '')}`
          }
          selected={current?.id}
          onSelect={setSelected}
          height={height - 1}
          width={width}
          active={active}
          warn={(m) => m.status === 'failed'}
          color={color}
        />
      )}
    </Box>
  );
}
