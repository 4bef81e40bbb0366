// One subscription to the keyboard for the whole console. ink's useInput subscribes each component
// in an effect, after its first frame is on screen: a key typed right after `n` or `f` opened a form
// (a fast typist, a paste, a test) reached no one and was lost. Here the root listens from the start
// and hands each key to the handlers the components registered while rendering, so the newest
// screen hears the very next key.
import { createContext, useContext, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useInput, type Key } from 'ink';

type Handler = (input: string, key: Key) => void;
type Registry = Map<symbol, { handler: Handler; active: boolean }>;

const KeysContext = createContext<Registry | null>(null);

export function KeysRoot({ children }: { children: ReactNode }) {
  const registry = useRef<Registry>(new Map()).current;
  useInput((input, key) => {
    const dispatch = (text: string, k: Key) => {
      // Registration order: the app's keys first, then the screen's, then its list's or form's.
      for (const entry of [...registry.values()]) if (entry.active) entry.handler(text, k);
    };
    // Keys that arrive together ("4j" from a busy terminal, a held key over SSH) are each a key;
    // a text field gets them one by one and ends up with the same text.
    if (input.length > 1 && !key.ctrl && !key.meta) for (const ch of input) dispatch(ch, { ...key, shift: /[A-Z]/.test(ch) });
    else dispatch(input, key);
  });
  return <KeysContext.Provider value={registry}>{children}</KeysContext.Provider>;
}

/** Like ink's useInput, but heard from the render that shows the component (see KeysRoot). */
export function useKeys(handler: Handler, options: { isActive?: boolean } = {}): void {
  const registry = useContext(KeysContext);
  if (!registry) throw new Error('useKeys needs a KeysRoot above it');
  const id = useRef(Symbol('keys')).current;
  registry.set(id, { handler, active: options.isActive ?? true });
  // Gone in the commit that removes the component, before its next frame is drawn: a passive
  // effect's cleanup runs later, and a key typed meanwhile reached the handler of a list no longer on
  // screen (j under the city picker moved the list below, and the picker to another order).
  useLayoutEffect(
    () => () => {
      registry.delete(id);
    },
    [registry, id],
  );
}
