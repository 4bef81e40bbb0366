import type { RequestContext } from '../http/context.ts';
import { sendJson } from '../http/respond.ts';
import { readiness } from '../use-cases/health.use-case.ts';

/** GET /healthz: the process answers. */
export function healthzRoute(ctx: RequestContext): void {
  sendJson(ctx, 200, { success: true, data: { status: 'ok' } }, { 'Cache-Control': 'no-store' });
}

/** GET /readyz: 200 when the database is reachable and migrated, else 503 in the ErrorResponse shape. */
export async function readyzRoute(ctx: RequestContext): Promise<void> {
  const state = await readiness({ ...ctx.deps, log: ctx.log });
  if (state.ready) return sendJson(ctx, 200, { success: true, data: state }, { 'Cache-Control': 'no-store' });
  sendJson(ctx, 503, { success: false, error: 'Not ready', details: [{ field: state.database ? 'migrations' : 'database', message: state.database ? 'migrations pending' : 'database unreachable' }] }, { 'Cache-Control': 'no-store' });
}
