// The real CLI, spawned: `bin/codrail --db FILE --json …`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/codrail', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (undefined when it is not JSON). */
  json: unknown;
}

export function runCli(args: string[], options: { db?: string; input?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  const full = options.db ? ['--db', options.db, ...args] : args;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...full], { env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
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
