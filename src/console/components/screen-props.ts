// What every console screen is given by the app (console-app.tsx): the session whose operations it
// calls, the words, the room it has, and how to tell the app what is going on.
import type { ConsoleSession } from '../console-session.ts';
import type { ConsoleText } from '../console-text.ts';

export interface ScreenProps {
  session: ConsoleSession;
  text: ConsoleText;
  /** Columns and rows the screen's body may use. */
  width: number;
  height: number;
  color: boolean;
  /** Keys reach this screen (it is shown, and no help overlay is over it). */
  active: boolean;
  /** How often lists reload. */
  refreshMs: number;
  /** A form or prompt is open: the app's keys (q, ?, screen numbers) are typed into it instead. */
  onCapture: (capturing: boolean) => void;
  /** A line for the status bar: the outcome of an action, or its error. */
  notify: (message: string, kind?: 'ok' | 'error') => void;
  /** Opens an order's detail over the screen (Esc comes back to it). */
  openOrder: (orderId: string) => void;
}
