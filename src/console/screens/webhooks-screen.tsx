// 6 Webhooks (issue 24 §1): the deliveries of the account's webhook endpoints, newest first
// (list_webhook_endpoints, list_webhook_deliveries): each event's state, tries, status code,
// latency and error. `e` moves to the next endpoint; Enter opens the delivery's order.
import { useState } from 'react';
import { Box, Text } from 'ink';
import { useKeys } from '../components/keys.tsx';
import type { ScreenProps } from '../components/screen-props.ts';
import { SelectList } from '../components/select-list.tsx';
import { useLive } from '../components/use-terminal.ts';
import { terminalValue } from '../../domain/terminal-text.ts';

interface EndpointView {
  id: string;
  url: string;
  status: string;
  failing_since: string | null;
}

interface DeliveryView {
  id: string;
  event_type: string;
  order_id: string | null;
  state: string;
  attempts: number;
  last_status: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  created_at: string;
}

export function WebhooksScreen(props: ScreenProps) {
  const { session, text, width, height, color, active, refreshMs, openOrder } = props;
  const [endpointAt, setEndpointAt] = useState(0);
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const live = useLive(
    async () => {
      const endpoints = (await session.invoke<{ items: EndpointView[] }>('list_webhook_endpoints', { limit: 100 })).items;
      const endpoint = endpoints[Math.min(endpointAt, Math.max(0, endpoints.length - 1))];
      const deliveries = endpoint ? (await session.invoke<{ items: DeliveryView[] }>('list_webhook_deliveries', { endpoint_id: endpoint.id, limit: 100 })).items : [];
      return { endpoints, endpoint, deliveries };
    },
    String(endpointAt),
    refreshMs,
    active,
  );
  const data = live.data;
  const current = data?.deliveries.find((d) => d.id === selected) ?? data?.deliveries[0];
  useKeys(
    (input, key) => {
      if (input === 'e' && data && data.endpoints.length > 1) {
        setSelected(undefined);
        setEndpointAt((at) => (at + 1) % data.endpoints.length);
      }
      if (key.return && current?.order_id) openOrder(current.order_id);
    },
    { isActive: active },
  );
  if (!data) return <Text>{live.error ? terminalValue(live.error) : text.loading}</Text>;
  if (!data.endpoint) return <Text>{text.noEndpoints}</Text>;
  const e = data.endpoint;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">{terminalValue(`${text.endpoint} ${Math.min(endpointAt, data.endpoints.length - 1) + 1}/${data.endpoints.length}: ${e.url} · ${e.status}${e.failing_since ? ` · ${text.failingSince} ${e.failing_since.slice(0, 16)}` : ''}`)}</Text>
      {data.deliveries.length === 0 ? (
        <Text>{text.noDeliveries}</Text>
      ) : (
        <SelectList
          items={data.deliveries}
          keyOf={(d) => d.id}
          line={(d) =>
            `${terminalValue(d.created_at).slice(0, 16).replace('T', ' ')} ${terminalValue(d.event_type).slice(0, 22).padEnd(22)} ${d.state.padEnd(9)} ${String(d.attempts).padStart(2)} ${String(d.last_status ?? '-').padEnd(3)} ${d.last_latency_ms === null ? '' : `${d.last_latency_ms}ms`} ${terminalValue(d.last_error ?? '')}`
          }
          selected={current?.id}
          onSelect={setSelected}
          height={height - 1}
          width={width}
          active={active}
          warn={(d) => d.state === 'dead' || d.state === 'failed'}
          color={color}
        />
      )}
    </Box>
  );
}
