// POST /api/oauth/revoke (RFC 7009; OAUTH.md T58–T59): 200 for known and unknown tokens alike.
import { sendEmpty } from '../http/respond.ts';
import { revokeToken } from '../use-cases/oauth/revoke.use-case.ts';
import { NO_STORE, oauthEndpoint, readForm, single } from './oauth-http.ts';
import { clientIdOf } from './token.route.ts';

export const revokeRoute = oauthEndpoint(async (ctx) => {
  const form = await readForm(ctx);
  await revokeToken({ ...ctx.deps, log: ctx.log }, { clientId: clientIdOf(ctx, form), token: single(form, 'token'), ip: ctx.ip });
  sendEmpty(ctx, 200, NO_STORE);
});
