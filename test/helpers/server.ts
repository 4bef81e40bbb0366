// Real seams for tests: a temp database (SQLite, or PostgreSQL in the suite's PostgreSQL run), the server in-process on port 0, called with fetch.
import { Writable } from 'node:stream';
import { loadConfig, withListenPort, type ConfigFlags } from '../../src/config.ts';
import { openApp, migrate, type App, type Deps } from '../../src/app.ts';
import { createLogger } from '../../src/log.ts';
import { createHttpServer, type HttpServer } from '../../src/http/server.ts';
import { loadRoutes } from '../../src/cli/serve.command.ts';
import type { Clock } from '../../src/clock.ts';
import { tempDatabase, withDatabaseEnv } from './test-database.ts';

export interface TestServer {
  url: string;
  app: App;
  deps: Deps;
  dbFile: string;
  /** A directory of the test's own, removed at close (beside the SQLite file, or apart on PostgreSQL). */
  dir: string;
  /** Every log line the server wrote, parsed. */
  logs: Record<string, unknown>[];
  /** The node:http shell, for what only it knows (its timeouts). */
  http: HttpServer;
  close(): Promise<void>;
}

/** A new database for one test: a SQLite file, or a PostgreSQL database in the suite's PostgreSQL run. */
export const tempDbFile = tempDatabase;

export async function startServer(flags: ConfigFlags = {}, options: { clock?: Clock; env?: Record<string, string> } = {}): Promise<TestServer> {
  const tmp = tempDatabase({ migrated: true });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const config = loadConfig({ port: 0, logLevel: 'info', ...flags, db: tmp.file }, withDatabaseEnv({ ...options.env }));
  const app = await openApp(config, { log: createLogger('info', sink), ...(options.clock ? { clock: options.clock } : {}) });
  await migrate(app);
  const http = createHttpServer(app, await loadRoutes());
  const port = await http.listen(0, '127.0.0.1');
  const deps: Deps = { ...app, config: withListenPort(config, port, flags.baseUrl !== undefined) };
  http.useDeps(deps);
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    deps,
    dbFile: tmp.file,
    dir: tmp.dir,
    logs,
    http,
    async close() {
      await http.close();
      await app.close();
      tmp.cleanup();
    },
  };
}
