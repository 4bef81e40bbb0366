// A list with one selected row (issue 24 §4): ↑↓ or j/k move, PgUp/PgDn a page, g/G the ends,
// Enter opens. The selection is a row key, so a live reload that adds rows above keeps it on its row;
// the row is marked with › as well as inverse video, visible without colour.
import { useRef } from 'react';
import { Box, Text } from 'ink';
import { useKeys } from './keys.tsx';

export interface SelectListProps<T> {
  items: readonly T[];
  keyOf: (item: T) => string;
  /** One line, already cut to the width by the caller's columns. */
  line: (item: T) => string;
  selected: string | undefined;
  onSelect: (key: string) => void;
  onOpen?: (item: T) => void;
  /** Rows the list may use. */
  height: number;
  width: number;
  active: boolean;
  /** A row to draw in the warning colour (an order awaiting review, a dead push). */
  warn?: (item: T) => boolean;
  color: boolean;
}

/** Where the selection is, falling back to the first row when its row has gone. */
export function selectedIndex<T>(items: readonly T[], keyOf: (item: T) => string, selected: string | undefined): number {
  return Math.max(0, items.findIndex((item) => keyOf(item) === selected));
}

export function SelectList<T>({ items, keyOf, line, selected, onSelect, onOpen, height, width, active, warn, color }: SelectListProps<T>) {
  const at = selectedIndex(items, keyOf, selected);
  // Where the selection is now, moved at once: two keys before the next render move it twice.
  const position = useRef(at);
  position.current = at;
  useKeys(
    (input, key) => {
      if (items.length === 0) return;
      const at = position.current;
      const go = (i: number) => {
        position.current = Math.min(items.length - 1, Math.max(0, i));
        onSelect(keyOf(items[position.current]!));
      };
      if (key.downArrow || input === 'j') go(at + 1);
      else if (key.upArrow || input === 'k') go(at - 1);
      else if (key.pageDown) go(at + height);
      else if (key.pageUp) go(at - height);
      else if (input === 'g' || key.home) go(0);
      else if (input === 'G' || key.end) go(items.length - 1);
      else if (key.return && onOpen) onOpen(items[at]!);
    },
    { isActive: active },
  );
  const rows = Math.max(1, height);
  const start = Math.min(Math.max(0, at - rows + 1), Math.max(0, items.length - rows));
  return (
    <Box flexDirection="column">
      {items.slice(start, start + rows).map((item, i) => {
        const isSelected = start + i === at;
        return (
          <Text key={keyOf(item)} inverse={isSelected} wrap="truncate-end" color={color && warn?.(item) ? 'yellow' : undefined}>
            {`${isSelected ? '›' : ' '}${line(item)}`.slice(0, width)}
          </Text>
        );
      })}
    </Box>
  );
}
