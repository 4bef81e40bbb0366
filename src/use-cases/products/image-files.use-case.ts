// GET /img/<id>-<width>.<avif|webp|jpg> (issue 23 §3): a hosted image's file, by primary key. A name
// no stored file can have is answered without asking the database.
import type { Deps } from '../../app.ts';
import { findImageVariant } from '../../db/queries/images.queries.ts';
import { IMAGE_CONTENT_TYPES, parseImageFile } from './images.ts';

export interface ImageFile {
  bytes: Buffer;
  contentType: string;
  /** Strong: the hash of the bytes. */
  etag: string;
}

export async function findImageFile(deps: Pick<Deps, 'db'>, name: string): Promise<ImageFile | undefined> {
  const file = parseImageFile(name);
  if (!file) return undefined;
  const row = await findImageVariant(deps.db, file.id, file.width, file.format);
  return row && { bytes: row.bytes, contentType: IMAGE_CONTENT_TYPES[file.format], etag: `"${row.digest}"` };
}
