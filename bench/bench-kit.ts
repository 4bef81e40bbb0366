// What the benchmarks that run servers as child processes share.
import type { ChildProcess } from 'node:child_process';
import { cpus, totalmem } from 'node:os';

/** Resolves with the first match of `pattern` in the child's output (stdout or stderr): its port, usually. */
export function listening(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = pattern.exec(out);
      if (m) {
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        resolve(m);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${out}`)));
  });
}

/** The machine a figure was measured on, as RESULTS.md prints it. */
export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.versions.node}, ${process.platform} ${process.arch}`;
}
