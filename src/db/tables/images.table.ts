// Product images hosted by codrail (issue 23 §3): an image, named by the hash of the bytes it was
// given, and its re-encoded files.

export type ImageVariantFormat = 'avif' | 'webp' | 'jpeg';

export interface ImagesTable {
  /** base64url of the SHA-256 of the original bytes, first 22 characters (132 bits). */
  id: string;
  /** Of the largest re-encoded file, upright (EXIF orientation applied). */
  width: number;
  height: number;
  /** What was given: jpeg, png, webp, avif or gif. */
  source_format: string;
  source_bytes: number;
  created_at: string;
}

export interface ImageVariantsTable {
  image_id: string;
  width: number;
  format: ImageVariantFormat;
  /** The encoded file, metadata stripped. */
  bytes: Buffer;
  byte_length: number;
  /** base64url SHA-256 of the bytes, first 22 characters: the strong ETag. */
  digest: string;
}
