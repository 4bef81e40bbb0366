// Frozen: never edit a migration that has shipped; add a new one.
// Issue 23 §3: product images hosted by codrail. An image is named by the hash of the bytes it was
// given (adding the same file or URL twice stores it once) and kept in the database, not on a disk
// of one server, so every server sharing the database serves it; its re-encoded files (AVIF, WebP,
// JPEG at a few widths) are rows of their own, read by primary key when a browser asks for one.
// A product's `images` JSON then names hosted images by id.
import { sql, type Kysely } from 'kysely';

const statements = [
  sql`CREATE TABLE images (
    id TEXT PRIMARY KEY,
    width INTEGER NOT NULL CHECK (width > 0),
    height INTEGER NOT NULL CHECK (height > 0),
    source_format TEXT NOT NULL,
    source_bytes INTEGER NOT NULL,
    created_at TEXT NOT NULL
  ) STRICT`,
  sql`CREATE TABLE image_variants (
    image_id TEXT NOT NULL REFERENCES images(id) ON DELETE CASCADE,
    width INTEGER NOT NULL CHECK (width > 0),
    format TEXT NOT NULL CHECK (format IN ('avif','webp','jpeg')),
    bytes BLOB NOT NULL,
    byte_length INTEGER NOT NULL,
    digest TEXT NOT NULL,
    PRIMARY KEY (image_id, width, format)
  ) STRICT`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
