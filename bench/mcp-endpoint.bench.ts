// /api/mcp throughput (SPEC 14 "speed is part of the product"). Every request authenticates
// (secret-key hash lookup, or ES256 JWS verification plus one database check for an OAuth token),
// checks scopes, and builds a fresh stateless SDK Server and transport. The baseline, measured in
// the same run with the same client, is a bare node:http server answering the same bytes: the
// ratios say what authentication and the MCP protocol layer cost per request.
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig, withListenPort } from '../src/config.ts';
import { migrate, openApp } from '../src/app.ts';
import { createLogger } from '../src/log.ts';
import { createHttpServer } from '../src/http/server.ts';
import { loadRoutes } from '../src/cli/serve.command.ts';
import { createAccount, createUser } from '../src/use-cases/accounts/accounts.use-case.ts';
import { createStore } from '../src/use-cases/stores/stores.use-case.ts';
import { createKey } from '../src/use-cases/keys/keys.use-case.ts';
import { operatorAs } from '../src/use-cases/caller.ts';
import { parseWith } from '../src/use-cases/validate.ts';
import { CreateStoreInput } from '../src/use-cases/stores/store.schemas.ts';
import { registerClient } from '../src/use-cases/oauth/clients.use-case.ts';
import { approveAuthorization } from '../src/use-cases/oauth/consent.use-case.ts';
import { exchangeCode } from '../src/use-cases/oauth/token.use-case.ts';
import { GRANTABLE_SCOPES } from '../src/domain/oauth/scopes.ts';
import { s256 } from '../src/domain/oauth/pkce.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONCURRENCY = 16;

const dir = mkdtempSync(join(tmpdir(), 'codrail-bench-'));
const config = loadConfig({ port: 0, logLevel: 'silent', db: join(dir, 'bench.sqlite') }, {});
const app = await openApp(config, { log: createLogger('silent') });
await migrate(app);
const http = createHttpServer(app, await loadRoutes());
const port = await http.listen(0, '127.0.0.1');
const deps = { ...app, config: withListenPort(config, port, false) };
http.useDeps(deps);
const base = deps.config.baseUrl;

// A shop, a secret key and an OAuth grant, all through the real use-cases.
const account = await createAccount(deps, { name: 'Bench' });
const as = operatorAs(account.id);
const store = await createStore(deps, as, parseWith(CreateStoreInput, { name: 'Tienda', country: 'CO', currency: 'COP', domains: ['shop.example.com'] }));
const secret = (await createKey(deps, as, { store_id: store.id, type: 'secret' })).key;
const user = await createUser(deps, { account_id: account.id, email: 'bench@example.com', password: 'bench password' });
const client = await registerClient(deps, { client_name: 'bench', redirect_uris: ['http://127.0.0.1:9/callback'] }, 'cli');
const verifier = 'v'.repeat(64);
const { code } = await approveAuthorization(deps, {
  clientId: client.client_id,
  userId: user.id,
  redirectUri: 'http://127.0.0.1:9/callback',
  codeChallenge: s256(verifier),
  requested: GRANTABLE_SCOPES,
  ticked: GRANTABLE_SCOPES,
  role: 'owner',
  resource: `${base}/api/mcp`,
});
const oauth = (await exchangeCode(deps, { clientId: client.client_id, code, codeVerifier: verifier, redirectUri: 'http://127.0.0.1:9/callback', resource: undefined })).access_token;

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
const CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_account', arguments: {} } });
const post = (url: string, body: string, token?: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body });

// The baseline answers the very bytes tools/list answers.
const listBytes = Buffer.from(await (await post(`${base}/api/mcp`, LIST, secret)).arrayBuffer());
const bare = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': listBytes.length });
    res.end(listBytes);
  });
});
await new Promise<void>((ok) => bare.listen(0, '127.0.0.1', ok));
const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}/`;

/** A measured answer must be the right one, not just a 200: the JSON-RPC result of what was asked. */
function checkBody(label: string, bytes: ArrayBuffer, expect: (result: Record<string, unknown>) => boolean): void {
  const body = JSON.parse(Buffer.from(bytes).toString('utf8')) as { result?: Record<string, unknown>; error?: unknown };
  if (!body.result || body.error !== undefined || !expect(body.result)) throw new Error(`${label}: unexpected answer ${Buffer.from(bytes).toString('utf8').slice(0, 200)}`);
}

const isList = (r: Record<string, unknown>) => Array.isArray(r.tools) && (r.tools as unknown[]).length === 62;
const isAccount = (r: Record<string, unknown>) => r.isError !== true && (r.structuredContent as { stores?: unknown[] } | undefined)?.stores?.length === 1;

async function run(label: string, send: () => Promise<Response>, expect: (result: Record<string, unknown>) => boolean): Promise<number> {
  // Warm-up, every answer checked; then every 100th answer of the measured run is checked too.
  for (let i = 0; i < 200; i++) {
    const res = await send();
    if (res.status !== 200) throw new Error(`${label}: status ${res.status}`);
    checkBody(label, await res.arrayBuffer(), expect);
  }
  let n = 0;
  const start = performance.now();
  const until = start + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const res = await send();
        const bytes = await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${label}: status ${res.status}`);
        if (++n % 100 === 0) checkBody(label, bytes, expect);
      }
    }),
  );
  const perSecond = n / ((performance.now() - start) / 1000);
  console.log(`${label.padEnd(40)} ${Math.round(perSecond).toLocaleString('en').padStart(8)} req/s`);
  return perSecond;
}

console.log(`/api/mcp benchmark: ${CONCURRENCY} concurrent keep-alive clients, ${SECONDS} s each, Node ${process.version}`);
const baseline = await run('baseline: bare node:http, same bytes', () => post(bareUrl, LIST), isList);
const secretList = await run('tools/list, secret key', () => post(`${base}/api/mcp`, LIST, secret), isList);
const oauthList = await run('tools/list, OAuth access token', () => post(`${base}/api/mcp`, LIST, oauth), isList);
const oauthCall = await run('tools/call get_account, OAuth token', () => post(`${base}/api/mcp`, CALL, oauth), isAccount);
console.log(`ratio tools/list secret key / baseline: ${(secretList / baseline).toFixed(3)}`);
console.log(`ratio tools/list OAuth token / baseline: ${(oauthList / baseline).toFixed(3)}`);
console.log(`ratio tools/call OAuth / tools/list OAuth: ${(oauthCall / oauthList).toFixed(3)}`);

await new Promise((ok) => bare.close(ok));
await http.close();
await app.close();
rmSync(dir, { recursive: true, force: true });
