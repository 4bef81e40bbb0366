import type { RequestContext } from './context.ts';
import { AppError } from '../errors.ts';

export function sendJson(ctx: RequestContext, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  ctx.res.writeHead(status, {
    ...ctx.headers,
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
  });
  ctx.res.end(payload);
}

export function sendEmpty(ctx: RequestContext, status: number, headers: Record<string, string> = {}): void {
  ctx.res.writeHead(status, { ...ctx.headers, ...headers });
  ctx.res.end();
}

/** The ErrorResponse shape (seed 2.4) for every error on every route; 500s reveal nothing. */
/** The client closed the connection while we read its body: nobody is left to answer (issue 13 §2). */
function clientGone(ctx: RequestContext, error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error as Error | null)?.message === 'aborted' || (ctx.req.destroyed && !ctx.req.complete);
}

export function sendError(ctx: RequestContext, error: unknown): void {
  if (!(error instanceof AppError) && clientGone(ctx, error)) {
    ctx.log.debug({ code: (error as { code?: unknown }).code }, 'the client went away mid-request');
    ctx.res.destroy();
    return;
  }
  if (ctx.res.headersSent) {
    ctx.log.error({ err: error }, 'error after headers were sent');
    ctx.res.destroy();
    return;
  }
  if (error instanceof AppError && error.expose) {
    const body: { success: false; error: string; details?: unknown } = { success: false, error: error.message };
    if (error.details?.length) body.details = error.details;
    sendJson(ctx, error.status, body, error.headers);
    return;
  }
  ctx.log.error({ err: error }, 'unhandled error');
  sendJson(ctx, 500, { success: false, error: 'Internal server error' });
}

/** An HTML page (or any text asset) with its own headers; the request's headers go on first. */
export function sendBody(ctx: RequestContext, status: number, body: string | Buffer, headers: Record<string, string>): void {
  const payload = typeof body === 'string' ? Buffer.from(body) : body;
  ctx.res.writeHead(status, { ...ctx.headers, ...headers, 'Content-Length': payload.length });
  ctx.res.end(ctx.req.method === 'HEAD' ? undefined : payload);
}
