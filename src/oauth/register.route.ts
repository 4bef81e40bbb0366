// POST /api/oauth/register (RFC 7591; OAUTH.md decisions 5–6, T22–T30): 201 with the kept
// redirect URIs, public client, no secret; rate-limited per client IP.
import { JSON_TYPE, parseJson, readBody } from '../http/body.ts';
import { sendJson } from '../http/respond.ts';
import { AppError } from '../errors.ts';
import { OAUTH_REGISTER_MAX_BYTES } from '../limits.ts';
import { hitRegistrationLimit, registerClient } from '../use-cases/oauth/clients.use-case.ts';
import { NO_STORE, oauthEndpoint } from './oauth-http.ts';


export const registerRoute = oauthEndpoint(async (ctx) => {
  const type = ctx.req.headers['content-type'];
  if (!type || !JSON_TYPE.test(type)) {
    ctx.req.resume();
    throw new AppError('invalid_client_metadata', 'Content-Type must be application/json');
  }
  await hitRegistrationLimit(ctx.deps, ctx.ip);
  const raw = await readBody(ctx, OAUTH_REGISTER_MAX_BYTES);
  let body: unknown;
  try {
    body = parseJson(raw);
  } catch (error) {
    throw new AppError('invalid_client_metadata', (error as Error).message);
  }
  const client = await registerClient(ctx.deps, body, 'dcr', ctx.ip);
  ctx.log.info({ clientId: client.client_id, name: client.client_name }, 'oauth client registered');
  sendJson(ctx, 201, client, NO_STORE);
});
