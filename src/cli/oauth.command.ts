// `codrail oauth …` (SPEC 9, 10): the operator's side of the authorization server: clients, the
// redirect allowlist, token families and signing keys. Every rule lives in the use-cases; this file
// only parses arguments and prints.
import type { Command } from 'commander';
import { AppError } from '../errors.ts';
import { collect, globals, print, shown, withApp } from './output.ts';

// Use-cases load when a command runs, so `codrail --help` starts fast (SPEC 14).
const loadClients = () => import('../use-cases/oauth/clients.use-case.ts');
const loadGrants = () => import('../use-cases/oauth/grants.use-case.ts');
const loadKeys = () => import('../use-cases/oauth/signing-keys.use-case.ts');

/** Why a callback is refused, in the operator's terms (domain/oauth/redirect-uris.ts is the rule). */
const REDIRECT_RULE =
  'a callback must be loopback (http://127.0.0.1, http://localhost or http://[::1], any port, path /callback, /oauth/callback, /oauth/callback/debug or /) ' +
  'or on the allowlist (see `codrail oauth redirects list`; add one with `codrail oauth redirects add URI`)';

const lines = (rows: string[], none: string) => (rows.length === 0 ? none : rows.join('\n'));

interface ClientView {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
  registered_via?: string;
  revoked_at?: string | null;
}
// Every stored value goes through shown(): a client names itself through dynamic registration, and
// its name must not draw a line of its own (issue 19 §3).
const clientText = (c: ClientView) =>
  [
    `${shown(c.client_id)}  ${shown(c.client_name)}${c.registered_via ? `  (${shown(c.registered_via)})` : ''}${c.revoked_at ? `  revoked ${shown(c.revoked_at)}` : ''}`,
    ...c.redirect_uris.map((u) => `  ${shown(u)}`),
  ].join('\n');

export function register(program: Command): void {
  const oauth = program.command('oauth').description('OAuth 2.1 authorization server for /api/mcp: clients, redirect allowlist, tokens, signing keys');

  const clients = oauth.command('clients').description('public OAuth clients (MCP hosts)');
  clients
    .command('register')
    .description('register a client; refused URIs are dropped with a warning, none allowed is an error')
    .requiredOption('--name <name>', 'client name shown on the consent page')
    .requiredOption('--redirect-uri <uri>', 'callback URI: loopback or on the allowlist (repeatable)', collect)
    .action(async (o: { name: string; redirectUri: string[] }, cmd: Command) => {
      const client = await withApp(cmd, async (app) => {
        try {
          return await (await loadClients()).registerClient(app, { client_name: o.name, redirect_uris: o.redirectUri }, 'cli');
        } catch (error) {
          if (error instanceof AppError && error.code === 'invalid_redirect_uri')
            throw new AppError('invalid_redirect_uri', `no redirect URI is an allowed callback (${o.redirectUri.join(', ')}); ${REDIRECT_RULE}`);
          throw error;
        }
      });
      // RFC 7591 §3.2.1 lets the server drop what it refuses; the operator must see what was dropped.
      const dropped = [...new Set(o.redirectUri.filter((u) => !client.redirect_uris.includes(u)))];
      if (dropped.length > 0) process.stderr.write(`warning: dropped redirect URI${dropped.length === 1 ? '' : 's'} ${dropped.map(shown).join(', ')}; ${REDIRECT_RULE}\n`);
      print(globals(cmd), client, clientText(client));
    });
  clients
    .command('list')
    .description('list clients, revoked ones included')
    .action(async (_o, cmd: Command) => {
      const rows = await withApp(cmd, async (app) => (await loadClients()).listOAuthClients(app));
      print(globals(cmd), rows, lines(rows.map(clientText), '(no OAuth clients)'));
    });
  clients
    .command('revoke')
    .description('revoke a client, every token family it holds and the API keys made through them')
    .argument('<client_id>', 'client id (mcp_…)')
    .action(async (id: string, _o, cmd: Command) => {
      const client = await withApp(cmd, async (app) => (await loadClients()).revokeOAuthClient(app, id));
      print(globals(cmd), client, clientText(client));
    });

  const tokens = oauth.command('tokens').description('token families: one per authorization, with its refresh and access tokens');
  tokens
    .command('list')
    .description('list active token families')
    .option('--client <id>', 'only this client')
    .option('--account <id>', 'only this account')
    .option('--all', 'include revoked and expired families')
    .action(async (o: { client?: string; account?: string; all?: boolean }, cmd: Command) => {
      const rows = await withApp(cmd, async (app) => (await loadGrants()).listGrants(app, { clientId: o.client, accountId: o.account, all: o.all === true }));
      const text = rows.map(
        (r) =>
          `${r.id}  ${r.state}  ${shown(r.client_name)} (${shown(r.client_id)})  ${shown(r.email)}  account ${r.account_id}\n  scope ${shown(r.scope)}  expires ${r.expires_at}${r.revoked_at ? `  revoked ${r.revoked_at} (${shown(r.revoked_reason)})` : ''}`,
      );
      print(globals(cmd), rows, lines(text, '(no token families)'));
    });
  tokens
    .command('revoke')
    .description('revoke a token family: its refresh and access tokens and the API keys made through it stop working at once')
    .argument('<family_id>', 'token family id (from `oauth tokens list`)')
    .action(async (id: string, _o, cmd: Command) => print(globals(cmd), await withApp(cmd, async (app) => (await loadGrants()).revokeGrant(app, id))));

  const redirects = oauth.command('redirects').description('allowlist of vendor callbacks clients may register (loopback callbacks are always allowed)');
  const redirectText = (rows: { uri: string; label: string | null }[]) => lines(rows.map((r) => `${shown(r.uri)}${r.label ? `  ${shown(r.label)}` : ''}`), '(empty allowlist: only loopback callbacks)');
  redirects
    .command('list')
    .description('list the allowlist')
    .action(async (_o, cmd: Command) => {
      const rows = await withApp(cmd, async (app) => (await loadClients()).listRedirectAllowlist(app));
      print(globals(cmd), rows, redirectText(rows));
    });
  redirects
    .command('add')
    .description('allow a callback: https or a private-use scheme, no query or fragment; a trailing /* matches one path segment')
    .argument('<uri>', 'callback URI')
    .option('--label <text>', 'who it belongs to')
    .action(async (uri: string, o: { label?: string }, cmd: Command) => {
      const rows = await withApp(cmd, async (app) => (await loadClients()).addRedirect(app, uri, o.label));
      print(globals(cmd), rows, redirectText(rows));
    });
  redirects
    .command('remove')
    .description('stop allowing a callback for new registrations (registered clients keep theirs)')
    .argument('<uri>', 'callback URI, exactly as listed')
    .action(async (uri: string, _o, cmd: Command) => {
      const rows = await withApp(cmd, async (app) => (await loadClients()).removeRedirect(app, uri));
      print(globals(cmd), rows, redirectText(rows));
    });

  const keys = oauth.command('keys').description('ES256 access-token signing keys');
  keys
    .command('rotate')
    .description('create a new signing key; the current one stops signing and verifies its tokens until they expire')
    .action(async (_o, cmd: Command) => {
      const r = await withApp(cmd, async (app) => (await loadKeys()).rotateSigningKey(app));
      print(globals(cmd), r, `new signing key ${r.kid}${r.retired.length ? `\nretired ${r.retired.join(', ')}` : ''}`);
    });
  keys
    .command('list')
    .description('list signing keys (ids only, never key material)')
    .action(async (_o, cmd: Command) => {
      const rows = await withApp(cmd, async (app) => (await loadKeys()).listSigningKeyIds(app));
      print(globals(cmd), rows, lines(rows.map((k) => `${k.kid}  ${k.alg}  created ${k.created_at}  ${k.retired_at ? `retired ${k.retired_at}` : 'current'}`), '(no signing keys yet: one is created on first use)'));
    });
}
