// GET /c/:token — the buyer's one-time address-correction page — and POST /c/:token, its form
// (issue 25). Never cached; a link that is unknown, used or expired is a 410 page saying so.
import type { RequestContext } from '../../http/context.ts';
import { readBody } from '../../http/body.ts';
import { sendBody } from '../../http/respond.ts';
import { AppError } from '../../errors.ts';
import { LANDING_FORM_MAX_BYTES } from '../../limits.ts';
import { parseForm } from '../../use-cases/form-text.ts';
import { correctionView, submitCorrection } from '../../use-cases/orders/correction.use-case.ts';
import { correctedPage, correctionGonePage, correctionPage, correctionValues } from '../../pages/correction.page.ts';
import type { RenderedPage } from '../../pages/landing.page.ts';
import { fieldMessage, TEXT } from '../../pages/page-text.ts';

function sendPage(ctx: RequestContext, status: number, page: RenderedPage): void {
  sendBody(ctx, status, page.body, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': page.csp,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    // The token is in the path: no other site learns it from a Referer.
    'Referrer-Policy': 'no-referrer',
  });
}

export async function correctionRoute(ctx: RequestContext): Promise<void> {
  const token = ctx.params.token ?? '';
  const view = await correctionView(ctx.deps, token);
  if (typeof view === 'string') return sendPage(ctx, 410, correctionGonePage(view));
  sendPage(ctx, 200, correctionPage(view, `/c/${token}`, { values: correctionValues(view.order) }));
}

export async function correctionSubmitRoute(ctx: RequestContext): Promise<void> {
  const token = ctx.params.token ?? '';
  const view = await correctionView(ctx.deps, token);
  if (typeof view === 'string') {
    ctx.req.resume();
    return sendPage(ctx, 410, correctionGonePage(view));
  }
  const type = String(ctx.req.headers['content-type'] ?? '');
  const raw = /^application\/x-www-form-urlencoded\b/i.test(type) ? await readBody(ctx, LANDING_FORM_MAX_BYTES) : (ctx.req.resume(), Buffer.alloc(0));
  let fields: Record<string, string> = {};
  try {
    fields = Object.fromEntries(parseForm(raw));
    const order = await submitCorrection(ctx.deps, view, token, fields);
    // Used meanwhile by another submit, or the order moved on: nothing of this one was written.
    if (typeof order === 'string') return sendPage(ctx, 410, correctionGonePage(order));
    sendPage(ctx, 200, correctedPage(view.number, order));
  } catch (error) {
    if (!(error instanceof AppError) || !error.expose) throw error;
    const errors: Record<string, string> = {};
    for (const d of error.details ?? []) errors[d.field] = fieldMessage(d.field, view.regionLabel);
    sendPage(ctx, 400, correctionPage(view, `/c/${token}`, { values: { ...correctionValues(view.order), ...fields }, errors, banner: TEXT.errorsTitle }));
  }
}
