// What the console knows of its terminal and its data, as React hooks: the size (a resize re-renders
// the screen at the new width and height) and a live read (an operation polled on an interval,
// kept while it reloads so the selection never jumps to a loading screen).
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStdout } from 'ink';

export interface TerminalSize {
  columns: number;
  rows: number;
}

/** The terminal's size, updated on resize; at least 40×12 so the layout never collapses. */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const read = useCallback((): TerminalSize => ({ columns: Math.max(40, stdout?.columns ?? 80), rows: Math.max(12, stdout?.rows ?? 24) }), [stdout]);
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (!stdout) return;
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, read]);
  return size;
}

export interface Live<T> {
  data: T | undefined;
  error: string | undefined;
  /** Reload now (after an action), without waiting for the next tick. */
  reload: () => void;
}

/**
 * Runs `read` now, whenever `key` changes, and every `everyMs` while `running` (the screen is on
 * view): a new order appears within two seconds (issue 24 §4), and a hidden screen reads nothing
 * until it shows again, when it reads at once. An answer for an older key is dropped; an error keeps
 * the last data.
 */
export function useLive<T>(read: () => Promise<T>, key: string, everyMs: number, running = true): Live<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const current = useRef(key);
  const readRef = useRef(read);
  readRef.current = read;
  const load = useCallback(() => {
    const wanted = current.current;
    readRef.current().then(
      (value) => {
        if (current.current !== wanted) return;
        setData(value);
        setError(undefined);
      },
      (e: unknown) => {
        if (current.current === wanted) setError(problemOf(e));
      },
    );
  }, []);
  useEffect(() => {
    if (current.current !== key) setData(undefined);
    current.current = key;
  }, [key]);
  useEffect(() => {
    if (!running) return;
    load();
    const timer = setInterval(load, everyMs);
    return () => clearInterval(timer);
  }, [key, everyMs, load, running]);
  return { data, error, reload: load };
}

/** An error as one line a person can act on: the message and its first field detail. */
export function problemOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const details = (error as { details?: { field: string; message: string }[] }).details;
  const first = details?.[0];
  return first && !error.message.includes(first.message) ? `${error.message} (${first.field}: ${first.message})` : error.message;
}
