// The single executable's files (issue 27): `dist/codrail-linux-x64` carries the compiled build
// (dist/*.js, the ES modules bin/codrail runs), the package's files (city catalogs, checkout.js)
// and the native packages (better-sqlite3 and its addon; sharp and libvips) as SEA assets, listed
// in the asset `manifest.json` with their SHA-256. At start they go to a private directory (mode
// 0700 under the system's temporary directory, removed at exit) laid out as the package is, and the
// build runs from there as it does from a checkout: module resolution, the city files and the
// addon are found where they always are. sharp (19 MB with libvips) is written only when an image
// is first encoded (src/package-files.ts, nativePackage). Each file is checked against its hash as
// it is written, before anything loads it. Nothing is written next to the executable.
//
// Only bundled by scripts/build-binary.mjs (from src/cli/sea-main.ts); never loaded otherwise.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

interface Manifest {
  version: string;
  commit: string;
  /** Package-relative path → SHA-256 (hex) and mode. */
  files: Record<string, { sha256: string; mode: number }>;
  /** The files each native package needs, by package name (what require() asks for). */
  packages: Record<string, string[]>;
  /** Written at start: the build, the package's own files, better-sqlite3. */
  eager: string[];
}

const PREFIX = 'codrail-sea-';

/** Directories of earlier runs whose process is gone (a SIGKILL leaves one behind). */
function sweepStale(root: string): void {
  let entries: string[];
  try {
    entries = readdirSync(root).filter((e) => e.startsWith(PREFIX));
  } catch {
    return;
  }
  for (const entry of entries) {
    const dir = join(root, entry);
    try {
      if (statSync(dir).uid !== process.getuid?.()) continue;
      const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
      try {
        process.kill(pid, 0);
        continue;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EPERM') continue;
      }
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Not ours, or being removed by its owner: leave it.
    }
  }
}

export interface SeaRuntime {
  readonly root: string;
  readonly manifest: Manifest;
  /** Writes a native package's files (sharp) before its first import. */
  extract(name: string): void;
}

export function startSeaRuntime(sea: typeof import('node:sea')): SeaRuntime {
  const manifest = JSON.parse(sea.getAsset('manifest.json', 'utf8')) as Manifest;
  const base = tmpdir();
  sweepStale(base);
  const root = mkdtempSync(join(base, PREFIX));
  chmodSync(root, 0o700);
  writeFileSync(join(root, 'pid'), String(process.pid));
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  const written = new Set<string>();
  const write = (path: string) => {
    if (written.has(path)) return;
    const entry = manifest.files[path];
    if (!entry) throw new Error(`the executable lacks ${path}`);
    const bytes = Buffer.from(sea.getRawAsset(path) as ArrayBuffer);
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    writeFileSync(target, bytes, { mode: entry.mode });
    // Checked as written, before anything loads it.
    if (createHash('sha256').update(readFileSync(target)).digest('hex') !== entry.sha256) throw new Error(`${path} does not match the executable's manifest`);
    written.add(path);
  };
  for (const path of manifest.eager) write(path);
  return {
    root,
    manifest,
    extract(name: string): void {
      const files = manifest.packages[name];
      if (!files) throw new Error(`${name} is not in the executable`);
      for (const path of files) write(path);
    },
  };
}

