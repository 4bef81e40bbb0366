// Support picks the city of an order whose city awaits review (issue 24 §1, §3): the matcher's
// candidates first, then "another city" typed with the catalog's cities suggested as you type. The
// pick goes to resolve_order_city, which checks it against the catalog and releases the push.
import { useState } from 'react';
import { Box, Text } from 'ink';
import { useKeys } from './keys.tsx';
import type { ConsoleSession } from '../console-session.ts';
import type { ConsoleText } from '../console-text.ts';
import { Form } from './form.tsx';
import { citySuggestions } from './suggest.ts';
import { terminalValue } from '../../domain/terminal-text.ts';

export interface Candidate {
  region: string;
  city: string;
}

export interface CityPickerProps {
  session: ConsoleSession;
  text: ConsoleText;
  order: { id: string; order_number: number; country?: string; departamento: string; ciudad: string };
  candidates: readonly Candidate[];
  country: string;
  width: number;
  color: boolean;
  onDone: (message: string) => void;
  onCancel: () => void;
}

export function CityPicker({ session, text, order, candidates, country, width, color, onDone, onCancel }: CityPickerProps) {
  const [at, setAt] = useState(0);
  const [typing, setTyping] = useState(candidates.length === 0);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const resolve = async (c: Candidate) => {
    const after = await session.invoke<{ ciudad: string; departamento: string; fulfillment: { state: string } | null }>('resolve_order_city', { order_id: order.id, region: c.region, city: c.city });
    onDone(text.resolved(order.order_number, `${after.ciudad} (${after.departamento})`, after.fulfillment?.state === 'queued'));
  };
  useKeys(
    (input, key) => {
      if (key.escape) return onCancel();
      const count = candidates.length + 1;
      if (key.downArrow || input === 'j') setAt((a) => Math.min(count - 1, a + 1));
      if (key.upArrow || input === 'k') setAt((a) => Math.max(0, a - 1));
      if (key.return) {
        if (at === candidates.length) return setTyping(true);
        resolve(candidates[at]!).catch((e: unknown) => setProblem(e instanceof Error ? e.message : String(e)));
      }
    },
    { isActive: !typing },
  );
  if (typing)
    return (
      <Form
        title={text.otherCity(order.order_number)}
        fields={[
          { name: 'region', label: text.region, initial: order.departamento },
          { name: 'city', label: text.city, initial: '', suggest: (value, values) => citySuggestions(session, country, values.region ?? '', value), hint: text.suggestHint },
        ]}
        onSubmit={(values) => resolve({ region: values.region ?? '', city: values.city ?? '' })}
        onCancel={() => (candidates.length ? setTyping(false) : onCancel())}
        text={text}
        width={width}
        color={color}
      />
    );
  const options = [...candidates.map((c) => `${c.city} (${c.region})`), text.anotherCity];
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} width={Math.min(width, 78)}>
      <Text bold wrap="truncate-end">
        {text.pickCity(order.order_number, terminalValue(`${order.ciudad}, ${order.departamento}`))}
      </Text>
      {options.map((o, i) => (
        <Text key={o} inverse={i === at} wrap="truncate-end">
          {`${i === at ? '›' : ' '} ${terminalValue(o)}`}
        </Text>
      ))}
      {problem && (
        <Text color={color ? 'red' : undefined} wrap="wrap">
          {terminalValue(problem)}
        </Text>
      )}
      <Text dimColor>{text.pickKeys}</Text>
    </Box>
  );
}
