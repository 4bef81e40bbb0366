import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../app.ts';
import type { Logger } from '../log.ts';

/** What every handler gets: fixed request stages have already run (id, logger, URL, client IP). */
export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly deps: Deps;
  readonly id: string;
  readonly log: Logger;
  readonly url: URL;
  readonly params: Readonly<Record<string, string | undefined>>;
  /** Client IP: the socket's, or from X-Forwarded-For with --trust-proxy. */
  readonly ip: string | null;
  /** Headers that every answer of this request carries (CORS, RateLimit-*), set by handlers. */
  readonly headers: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => Promise<void> | void;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface Route {
  method: Method;
  path: string;
  handler: Handler;
}
