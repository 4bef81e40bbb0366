// What dist/ was built from (scripts/build.mjs writes it; bin/codrail compares): every file under
// src/ with its size and modification time, and those of package.json and the build's two scripts. A tree edited since the build
// differs, and the CLI runs the TypeScript through tsx instead. Stats only, no reads: a few
// milliseconds for the whole tree.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function fingerprint(root) {
  let files = 0;
  let size = 0;
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const s = statSync(path);
        files++;
        size += s.size;
        newest = Math.max(newest, s.mtimeMs);
      }
    }
  };
  walk(join(root, 'src'));
  const stamp = (file) => {
    const s = statSync(join(root, file));
    return `${s.size}:${s.mtimeMs}`;
  };
  return { files, size, newest, package: stamp('package.json'), build: stamp('scripts/build.mjs'), options: stamp('scripts/bundle-options.mjs') };
}
