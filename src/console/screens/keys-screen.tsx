// 4 Keys (issue 24 §1, §6): the account's API keys, masked; `c` creates one (its value shown this
// once, in a box that stays until a key is pressed), `x` revokes the selected one after a y/n
// confirmation. Keys are store settings: the app shows this screen only to a session that may
// change them (a support user never sees it).
import { useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import { useKeys } from '../components/keys.tsx';
import type { ScreenProps } from '../components/screen-props.ts';
import { SelectList } from '../components/select-list.tsx';
import { useLive } from '../components/use-terminal.ts';
import { Form } from '../components/form.tsx';
import type { StoreView } from './orders-screen.tsx';
import { terminalValue } from '../../domain/terminal-text.ts';

interface KeyView {
  id: string;
  store_id: string;
  type: 'publishable' | 'secret';
  mode: 'test' | 'live';
  label: string | null;
  masked: string;
  active: boolean;
  last_used_at?: string | null;
}

type Mode = 'list' | 'create' | 'revoke' | 'shown';

export function KeysScreen(props: ScreenProps & { stores: readonly StoreView[] }) {
  const { session, text, width, height, color, active, refreshMs, onCapture, notify, stores } = props;
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [mode, setMode] = useState<Mode>('list');
  const [created, setCreated] = useState<string | undefined>(undefined);
  useEffect(() => onCapture(mode !== 'list'), [mode, onCapture]);
  const live = useLive(() => session.invoke<{ items: KeyView[] }>('list_api_keys', { limit: 100 }), 'keys', refreshMs, active);
  const keys = live.data?.items;
  const current = keys?.find((k) => k.id === selected) ?? keys?.[0];

  useKeys(
    (input, key) => {
      if (mode === 'shown') {
        setCreated(undefined);
        return setMode('list');
      }
      if (mode === 'revoke') {
        setMode('list');
        if ((input === 'y' || input === 's') && current)
          session.invoke('revoke_api_key', { key_id: current.id }).then(
            () => (notify(text.revoked(current.masked), 'ok'), live.reload()),
            (e: unknown) => notify(e instanceof Error ? e.message : String(e), 'error'),
          );
        return;
      }
      if (mode !== 'list') return;
      if (input === 'c' && stores.length > 0) setMode('create');
      if ((input === 'x' || key.delete) && current?.active) setMode('revoke');
    },
    { isActive: active && mode !== 'create' },
  );

  if (mode === 'create')
    return (
      <Form
        title={text.newKeyTitle}
        fields={[
          { name: 'store_id', label: text.fields.store, options: stores.map((s) => ({ value: s.id, label: s.name })) },
          {
            name: 'kind',
            label: text.fields.keyKind,
            options: [
              { value: 'pub-live', label: text.keyKinds.pubLive },
              { value: 'pub-test', label: text.keyKinds.pubTest },
              { value: 'secret', label: text.keyKinds.secret },
            ],
          },
          { name: 'label', label: text.fields.label },
        ]}
        onSubmit={async (v) => {
          const label = v.label?.trim() ? { label: v.label.trim() } : {};
          const answer =
            v.kind === 'secret'
              ? await session.invoke<{ key: string }>('create_secret_key', { store_id: v.store_id, ...label })
              : await session.invoke<{ key: string }>('create_publishable_key', { store_id: v.store_id, mode: v.kind === 'pub-test' ? 'test' : 'live', ...label });
          setCreated(answer.key);
          setMode('shown');
          live.reload();
        }}
        onCancel={() => setMode('list')}
        text={text}
        width={width}
        color={color}
      />
    );
  if (mode === 'shown' && created)
    return (
      <Box flexDirection="column" borderStyle="double" paddingX={1}>
        <Text bold>{text.keyOnce}</Text>
        <Text>{created}</Text>
        <Text dimColor>{text.anyKey}</Text>
      </Box>
    );
  if (!keys) return <Text>{live.error ? terminalValue(live.error) : text.loading}</Text>;
  const storeName = (id: string) => terminalValue(stores.find((s) => s.id === id)?.name ?? id.slice(0, 8));
  return (
    <Box flexDirection="column">
      {mode === 'revoke' && current && <Text color={color ? 'yellow' : undefined}>{text.revokeAsk(current.masked)}</Text>}
      {keys.length === 0 ? (
        <Text>{text.noKeys}</Text>
      ) : (
        <SelectList
          items={keys}
          keyOf={(k) => k.id}
          line={(k) =>
            `${k.masked.padEnd(26)} ${k.type.padEnd(11)} ${k.mode.padEnd(4)} ${(k.active ? '' : text.revokedFlag).padEnd(9)} ${storeName(k.store_id).slice(0, 14).padEnd(14)} ${terminalValue(k.label ?? '')}`
          }
          selected={current?.id}
          onSelect={setSelected}
          height={height - (mode === 'revoke' ? 1 : 0)}
          width={width}
          active={active && mode === 'list'}
          color={color}
        />
      )}
    </Box>
  );
}
