// A form typed at the keyboard (a phone order, a note, a cancellation, a buyer correction, a new key,
// the orders filter): ↑↓ or Tab move between fields, typing edits a text field, ←→ change a choice,
// → takes the first suggestion of a field that suggests (the city as you type), Enter submits, Esc
// leaves. What it submits goes to an account operation, which checks it: the form has no rule of
// its own, and shows the operation's error under the fields.
import { useEffect, useRef, useState } from 'react';
import { Box, Text } from 'ink';
import { useKeys } from './keys.tsx';
import type { ConsoleText } from '../console-text.ts';
import { problemOf } from './use-terminal.ts';
import { terminalValue } from '../../domain/terminal-text.ts';

export interface Option {
  value: string;
  label: string;
}

export interface FormField {
  name: string;
  label: string;
  /** A choice cycles through its options with ←→ (which may follow another field); a text field is typed. */
  options?: readonly Option[] | ((values: Record<string, string>) => readonly Option[]);
  initial?: string;
  /** Candidates for what is typed so far (the other fields' values too, e.g. the region of a city). */
  suggest?: (value: string, values: Record<string, string>) => Promise<readonly string[]>;
  /** A line under the field while it is focused (which may follow the other fields). */
  hint?: string | ((values: Record<string, string>) => string);
}

export interface FormProps {
  title: string;
  fields: readonly FormField[];
  /** Runs the operation; a thrown error is shown and the form stays, with what was typed. */
  onSubmit: (values: Record<string, string>) => Promise<void>;
  onCancel: () => void;
  text: ConsoleText;
  width: number;
  color: boolean;
}

const optionsOf = (f: FormField, values: Record<string, string>): readonly Option[] | undefined => (typeof f.options === 'function' ? f.options(values) : f.options);

/** Each field's first value; a choice whose options follow another field starts on their first. */
function initialValues(fields: readonly FormField[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const f of fields) values[f.name] = f.initial ?? optionsOf(f, values)?.[0]?.value ?? '';
  return values;
}

/** A choice left on a value its options no longer have (the pack of another product) takes their first. */
function settled(fields: readonly FormField[], values: Record<string, string>): Record<string, string> {
  const out = { ...values };
  for (const f of fields) {
    const options = optionsOf(f, out);
    if (options && !options.some((o) => o.value === out[f.name])) out[f.name] = options[0]?.value ?? '';
  }
  return out;
}

export function Form({ title, fields, onSubmit, onCancel, text, width, color }: FormProps) {
  const [values, setValues] = useState<Record<string, string>>(() => initialValues(fields));
  const [focus, setFocus] = useState(0);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [suggestions, setSuggestions] = useState<readonly string[]>([]);
  const field = fields[focus]!;
  const asked = useRef(0);

  // Candidates follow what is typed; a late answer for older text is dropped.
  useEffect(() => {
    const field = fields[focus]!;
    if (!field.suggest) return setSuggestions([]);
    const ticket = ++asked.current;
    const value = values[field.name] ?? '';
    field.suggest(value, values).then(
      (found) => ticket === asked.current && setSuggestions(found.slice(0, 5)),
      () => ticket === asked.current && setSuggestions([]),
    );
  }, [fields, focus, values]);

  const set = (name: string, value: string) => setValues((all) => ({ ...all, [name]: value }));

  useKeys((input, key) => {
    if (busy) return;
    if (key.escape) return onCancel();
    if (key.return) {
      setBusy(true);
      setProblem(undefined);
      onSubmit(settled(fields, values)).then(
        () => setBusy(false),
        (error: unknown) => {
          setBusy(false);
          setProblem(problemOf(error));
        },
      );
      return;
    }
    if (key.downArrow || (key.tab && !key.shift)) return setFocus((f) => (f + 1) % fields.length);
    if (key.upArrow || (key.tab && key.shift)) return setFocus((f) => (f - 1 + fields.length) % fields.length);
    const value = values[field.name] ?? '';
    const options = optionsOf(field, values);
    if (options) {
      if (options.length === 0) return;
      const at = Math.max(0, options.findIndex((o) => o.value === value));
      if (key.rightArrow || input === ' ') set(field.name, options[(at + 1) % options.length]!.value);
      if (key.leftArrow) set(field.name, options[(at - 1 + options.length) % options.length]!.value);
      return;
    }
    // Edits apply to the latest text, not this render's: keys that arrive together are typed in order.
    const edit = (change: (text: string) => string) => setValues((all) => ({ ...all, [field.name]: change(all[field.name] ?? '') }));
    if (key.rightArrow && suggestions[0]) return set(field.name, suggestions[0]);
    // Terminals send DEL (0x7f) for Backspace, which ink reports as delete.
    if (key.backspace || key.delete) return edit((text) => text.slice(0, -1));
    if (key.ctrl && input === 'u') return set(field.name, '');
    if (input && !key.ctrl && !key.meta && !key.leftArrow && !key.rightArrow) edit((text) => text + input.replace(/[\r\n\t]/g, ''));
  });

  const hint = typeof field.hint === 'function' ? field.hint(values) : field.hint;
  const labelWidth = Math.min(18, Math.max(...fields.map((f) => f.label.length)) + 1);
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} width={Math.min(width, 78)}>
      <Text bold>{title}</Text>
      {fields.map((f, i) => {
        const value = values[f.name] ?? '';
        const options = optionsOf(f, values);
        const shown = options ? `‹ ${terminalValue((options.find((o) => o.value === value) ?? options[0])?.label ?? '-')} ›` : `${terminalValue(value)}${i === focus ? '▏' : ''}`;
        return (
          <Text key={f.name} wrap="truncate-end" inverse={i === focus}>
            {`${i === focus ? '›' : ' '}${f.label.padEnd(labelWidth)} ${shown}`}
          </Text>
        );
      })}
      {suggestions.length > 0 && (
        <Text wrap="truncate-end" color={color ? 'cyan' : undefined}>
          {`  → ${suggestions.map((s) => terminalValue(s)).join(' · ')}`}
        </Text>
      )}
      {hint && (
        <Text dimColor wrap="truncate-end">
          {`  ${terminalValue(hint)}`}
        </Text>
      )}
      {problem && (
        <Text color={color ? 'red' : undefined} wrap="wrap">
          {terminalValue(problem)}
        </Text>
      )}
      <Text dimColor wrap="truncate-end">
        {busy ? text.working : text.formKeys}
      </Text>
    </Box>
  );
}
