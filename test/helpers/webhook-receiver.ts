// A seller's webhook endpoint, real: an HTTP server on 127.0.0.1 that records every request it gets
// (headers, the raw body, the order of arrival) and answers as the test decides — at once, or held
// past the sender's deadline, as a slow receiver does.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  /** Index of arrival across every request this receiver got, from 0. */
  n: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  eventId: string;
  eventType: string;
  signature: string;
  /** The body exactly as received. */
  body: string;
  /** The body parsed (undefined when it is not JSON); typed `any`, tests check it field by field. */
  json: any;
  /** Copies of this event id received before this one (0 for the first). */
  copy: number;
  /** Date.now() at arrival, to check the signature's timestamp as a receiver would. */
  at: number;
  /** What the receiver answered. */
  answer: Answer;
}

/** An answer: a status, sent at once, after `holdMs`, or once `after` settles (a step of the test). */
export interface Answer {
  status: number;
  holdMs?: number;
  after?: Promise<unknown>;
}

export type Decide = (arrival: Omit<Arrival, 'answer'>) => Answer;

export interface Receiver {
  /** Where to POST: http://127.0.0.1:<port>/hooks */
  url: string;
  /** How the next requests are answered (200 unless told otherwise). */
  decide: Decide;
  arrivals(): readonly Arrival[];
  /** Arrivals the receiver answered 2xx (it processed them, whether or not the sender still waited). */
  accepted(): Arrival[];
  /** Requests whose (held) answer is not written yet. */
  holding(): number;
  close(): Promise<void>;
}

const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
};

export async function startReceiver(decide: Decide = () => ({ status: 200 })): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  const copies = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  let holding = 0;
  const answer = (res: ServerResponse, status: number) => {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, { 'content-type': 'application/json' }).end(status < 300 ? '{"received":true}' : '{"error":"try later"}');
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    // The sender gives up on a held answer by closing the socket: nothing to do but not crash.
    req.on('error', () => {});
    res.on('error', () => {});
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const eventId = header(req.headers, 'codrail-event-id');
      const copy = copies.get(eventId) ?? 0;
      copies.set(eventId, copy + 1);
      const seen = {
        n: arrivals.length,
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        eventId,
        eventType: header(req.headers, 'codrail-event-type'),
        signature: header(req.headers, 'codrail-signature'),
        body,
        json,
        copy,
        at: Date.now(),
      };
      const chosen = receiver.decide(seen);
      arrivals.push({ ...seen, answer: chosen });
      if (chosen.after) {
        holding++;
        void chosen.after.finally(() => {
          holding--;
          if (!res.destroyed) answer(res, chosen.status);
        });
        return;
      }
      if (!chosen.holdMs) return answer(res, chosen.status);
      holding++;
      const timer = setTimeout(() => {
        timers.delete(timer);
        holding--;
        answer(res, chosen.status);
      }, chosen.holdMs);
      timers.add(timer);
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    decide,
    arrivals: () => arrivals,
    accepted: () => arrivals.filter((a) => a.answer.status >= 200 && a.answer.status < 300),
    holding: () => holding,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}
