// The real CLI, spawned: `bin/codrail --db FILE --json …`.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { withDatabaseEnv } from './test-database.ts';

export const BIN = fileURLToPath(new URL('../../bin/codrail', import.meta.url));

/**
 * The environment a spawned CLI gets: the caller's, without any codrail setting (a developer's own
 * CODRAIL_DB or LOG_LEVEL must not change what a test runs), plus what the test passes.
 */
export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(CODRAIL_|PORT$|HOST$|LOG_LEVEL$)/.test(k)));
  return withDatabaseEnv({ ...clean, ...extra });
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (undefined when it is not JSON). */
  json: unknown;
}

export function runCli(args: string[], options: { db?: string; input?: string | Buffer; env?: Record<string, string> } = {}): Promise<CliResult> {
  const full = options.db ? ['--db', options.db, ...args] : args;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...full], { env: cliEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code: code ?? -1, stdout, stderr, json });
    });
    child.stdin.end(options.input ?? '');
  });
}

export interface ServeProcess {
  child: import('node:child_process').ChildProcess;
  base: string;
  /** Everything serve wrote on stdout (JSON log lines) and stderr (the banner), so far. */
  output(): { stdout: string; stderr: string };
  exited: Promise<number | null>;
}

/** The real `codrail serve --port 0` on a database file; resolves once it prints its base URL. */
export function spawnServe(db: string, args: string[] = [], timeoutMs = 30_000, env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, '--db', db, 'serve', '--port', '0', ...args], { env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), timeoutMs);
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /codrail listening on (http:\/\/\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve({ child, base: m[1]!, output: () => ({ stdout, stderr }), exited });
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

export interface Running {
  url: string;
  child: ChildProcess;
  /** SIGTERM, then how it exited and everything it printed. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/**
 * Spawns a long-running `codrail --json …` (a simulator) and resolves with the URL of its first
 * stdout line; `env` is added to `cliEnv`.
 */
export function spawnLong(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, [BIN, '--json', ...args], { env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return { ...(await exited), stdout, stderr };
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`no URL printed within 20 s\nstderr: ${stderr}`))), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!stdout.includes('\n')) return;
      clearTimeout(timer);
      try {
        const printed = JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) as { url: string };
        assert.deepEqual(Object.keys(printed), ['url']);
        assert.match(printed.url, /^http:\/\/127\.0\.0\.1:\d+$/);
        assert.notEqual(printed.url, 'http://127.0.0.1:0');
        resolve({ url: printed.url, child, stop });
      } catch (error) {
        child.kill('SIGKILL');
        reject(error);
      }
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`exited ${code} before printing\nstderr: ${stderr}`))));
  });
}
