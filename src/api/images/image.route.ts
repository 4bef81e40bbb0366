// GET /img/:file (issue 23 §3; SPEC 19): the files of hosted product images. A file never changes
// under its name (the name carries the content hash of the image), so browsers and CDNs keep it a
// year without asking again; a strong ETag answers 304 to those that ask anyway. The hot path is a
// lookup in a small in-memory cache of recent files (bounded in bytes), else one read by primary key.
import type { RequestContext } from '../../http/context.ts';
import { sendBody, sendEmpty } from '../../http/respond.ts';
import { AppError } from '../../errors.ts';
import { IMAGE_CACHE_BYTES, IMAGE_MAX_AGE_S } from '../../limits.ts';
import { findImageFile, type ImageFile } from '../../use-cases/products/image-files.use-case.ts';

/** Least recently used files first out, once their bytes pass the budget. */
class RecentFiles {
  readonly #files = new Map<string, ImageFile>();
  #bytes = 0;
  constructor(readonly budget: number) {}

  get(name: string): ImageFile | undefined {
    const file = this.#files.get(name);
    if (file) {
      this.#files.delete(name);
      this.#files.set(name, file);
    }
    return file;
  }

  set(name: string, file: ImageFile): void {
    // One file never takes more than an eighth of the cache.
    if (file.bytes.length > this.budget / 8 || this.#files.has(name)) return;
    this.#files.set(name, file);
    this.#bytes += file.bytes.length;
    for (const [oldest, old] of this.#files) {
      if (this.#bytes <= this.budget) break;
      this.#files.delete(oldest);
      this.#bytes -= old.bytes.length;
    }
  }
}

/** One cache per database (a test server, a serving process). */
const caches = new WeakMap<object, RecentFiles>();

const matches = (header: string | undefined, etag: string) => header !== undefined && (header.trim() === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag));

export async function imageRoute(ctx: RequestContext): Promise<void> {
  const name = ctx.params.file ?? '';
  let cache = caches.get(ctx.deps.db);
  if (!cache) caches.set(ctx.deps.db, (cache = new RecentFiles(IMAGE_CACHE_BYTES)));
  let file = cache.get(name);
  if (!file) {
    file = await findImageFile(ctx.deps, name);
    if (!file) throw new AppError('not_found', 'Image not found');
    cache.set(name, file);
  }
  const headers = {
    'Content-Type': file.contentType,
    'Cache-Control': `public, max-age=${IMAGE_MAX_AGE_S}, immutable`,
    ETag: file.etag,
    'X-Content-Type-Options': 'nosniff',
    // Merchants' own sites (the embedded checkout) may show them under a cross-origin isolation policy.
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
  if (matches(ctx.req.headers['if-none-match'], file.etag)) return sendEmpty(ctx, 304, headers);
  sendBody(ctx, 200, file.bytes, headers);
}
