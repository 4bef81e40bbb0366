// Re-encoding product images (issue 23 §3) with sharp (libvips). The bytes are judged by what their
// header says, never by a Content-Type or a file name: JPEG, PNG, WebP, AVIF and GIF (its first
// frame) are taken; SVG (a document that can run script and fetch other hosts), HEIC, TIFF and
// anything else are refused. An image's size is read from its header before a pixel is decoded,
// so a decompression bomb (a few KB declaring 50,000×50,000) is refused unread, and the decoder is
// bounded by the same pixel limit besides.
//
// Each image is turned upright (EXIF orientation), converted to sRGB, and written as AVIF, WebP and
// a progressive mozjpeg JPEG at each width of IMAGE_WIDTHS it reaches; nothing of the original's
// metadata survives (EXIF, GPS, XMP, ICC: sharp writes none unless asked, and the pixels go through
// a raw buffer). Encoding runs on libuv's worker threads, never on the event loop, one image at a
// time per process (IMAGE_ENCODE_CONCURRENCY).
//
// Speed (bench/image-encode.bench.ts; the 2-core reference machine, Node 20, sharp 0.35.5): a
// 1600×1600 photo with fine grain (the hard case for every encoder) becomes its 12 files (≈ 740 KB
// in all) in 0.4–0.6 s, about twice one plain 1280 px JPEG re-encode. AVIF at effort 2 took 1.2 s
// and at effort 4 six seconds, for files only 1–8 % smaller: AVIF runs at effort 0.
import { createHash } from 'node:crypto';
import type { Metadata, OutputInfo, Sharp, SharpInput, SharpOptions } from 'sharp';
import PQueue from 'p-queue';
import { IMAGE_ENCODE_CONCURRENCY, IMAGE_MAX_BYTES, IMAGE_MAX_ENCODED_HEIGHT, IMAGE_MAX_PIXELS, IMAGE_MIN_SIDE } from '../../limits.ts';
import { IMAGE_FORMATS, variantWidths, type ImageFormat } from './images.ts';
import { nativePackage } from '../../package-files.ts';

export type SourceFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'gif';

export const ACCEPTED_IMAGES = 'JPEG, PNG, WebP, AVIF or GIF';

/** Why bytes are not a product image, said as the end of a sentence about the field ("file is not an image…"). */
export class ImageRefused extends Error {
  override readonly name = 'ImageRefused';
}

export interface EncodedVariant {
  width: number;
  format: ImageFormat;
  bytes: Buffer;
  /** base64url SHA-256 of the bytes, first 22 characters. */
  digest: string;
}

export interface EncodedImage {
  id: string;
  /** Of the largest file. */
  width: number;
  height: number;
  sourceFormat: SourceFormat;
  sourceBytes: number;
  variants: EncodedVariant[];
}

export interface InspectedImage {
  format: SourceFormat;
  /** Upright: EXIF orientation applied. */
  width: number;
  height: number;
}

type SharpFactory = (input?: SharpInput, options?: SharpOptions) => Sharp;
let loaded: Promise<SharpFactory> | undefined;
/** sharp (a native library) is loaded on the first image, not by every command that opens the app. */
const loadSharp = (): Promise<SharpFactory> =>
  (loaded ??= (async () => {
    nativePackage('sharp');
    return (await import('sharp')).default as unknown as SharpFactory;
  })());

const shortHash = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64url').slice(0, 22);

/** An image's id: the hash of the bytes it was given, so the same file or URL is stored once. */
export const imageIdOf = (bytes: Uint8Array): string => shortHash(bytes);

export const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

function sourceFormat(meta: Metadata): SourceFormat | undefined {
  switch (meta.format) {
    case 'jpeg':
    case 'png':
    case 'webp':
    case 'gif':
      return meta.format;
    case 'heif':
      // AVIF is AV1 in a HEIF container; HEIC (HEVC) is not something every browser shows.
      return meta.compression === 'av1' ? 'avif' : undefined;
    default:
      return undefined;
  }
}

const FORMAT_NAMES: Readonly<Record<string, string>> = { svg: 'SVG', heif: 'HEIC', tiff: 'TIFF', pdf: 'PDF', jp2k: 'JPEG 2000', jxl: 'JPEG XL' };

/** What the bytes are, from their header alone (nothing is decoded): refused unless a product image within the limits. */
export async function inspectImage(bytes: Uint8Array): Promise<InspectedImage> {
  if (bytes.length > IMAGE_MAX_BYTES) throw new ImageRefused(`is larger than ${megabytes(IMAGE_MAX_BYTES)}`);
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRefused(`is not an image (${ACCEPTED_IMAGES} expected)`);
  }
  const format = sourceFormat(meta);
  if (!format) throw new ImageRefused(`is an image type that is not accepted (${FORMAT_NAMES[meta.format] ?? meta.format.toUpperCase()}): send ${ACCEPTED_IMAGES}`);
  const turned = (meta.orientation ?? 1) >= 5;
  const width = turned ? meta.height : meta.width;
  const height = turned ? meta.width : meta.height;
  if (!width || !height) throw new ImageRefused(`is not an image (${ACCEPTED_IMAGES} expected)`);
  if (width * height > IMAGE_MAX_PIXELS) throw new ImageRefused(`has more than ${IMAGE_MAX_PIXELS / 1_000_000} megapixels (${width}×${height})`);
  if (width < IMAGE_MIN_SIDE || height < IMAGE_MIN_SIDE) throw new ImageRefused(`is smaller than ${IMAGE_MIN_SIDE}×${IMAGE_MIN_SIDE} pixels (${width}×${height})`);
  const widths = variantWidths(width);
  if (Math.round((height * widths[widths.length - 1]!) / width) > IMAGE_MAX_ENCODED_HEIGHT) throw new ImageRefused(`is too tall for its width (${width}×${height})`);
  return { format, width, height };
}

/** Quality and effort per format: about half a second for a 1600×1600 photo's twelve files (see above). */
function encoder(format: ImageFormat, image: Sharp): Sharp {
  switch (format) {
    case 'avif':
      return image.avif({ quality: 50, effort: 0, chromaSubsampling: '4:2:0' });
    case 'webp':
      return image.webp({ quality: 75, effort: 4 });
    case 'jpeg':
      // JPEG has no transparency: a transparent background shows white, as on the page.
      return image.flatten({ background: '#ffffff' }).jpeg({ quality: 78, mozjpeg: true, progressive: true });
  }
}

async function encodeInspected(bytes: Uint8Array, inspected: InspectedImage): Promise<EncodedImage> {
  const widths = variantWidths(inspected.width);
  const largest = widths[widths.length - 1]!;
  const sharp = await loadSharp();
  let upright: { data: Buffer; info: OutputInfo };
  try {
    // failOn 'error': a JPEG with a warning a browser shows anyway (extraneous bytes) is still taken.
    upright = await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS, animated: false, failOn: 'error' })
      .rotate()
      .resize({ width: largest, withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new ImageRefused(`could not be decoded: ${(error as Error).message.split('\n')[0]}`);
  }
  const { width, height, channels } = upright.info;
  const raw = { raw: { width, height, channels } } as const;
  const variants: EncodedVariant[] = [];
  // The three formats of one width at a time: three worker threads, largest width first.
  for (const w of [...widths].reverse()) {
    const files = await Promise.all(
      IMAGE_FORMATS.map(async (format) => {
        const image = sharp(upright.data, raw);
        let out: Buffer;
        try {
          out = await encoder(format, w === width ? image : image.resize({ width: w })).toBuffer();
        } catch (error) {
          throw new ImageRefused(`could not be encoded as ${format.toUpperCase()}: ${(error as Error).message.split('\n')[0]}`);
        }
        return { width: w, format, bytes: out, digest: shortHash(out) };
      }),
    );
    variants.push(...files);
  }
  return { id: imageIdOf(bytes), width, height, sourceFormat: inspected.format, sourceBytes: bytes.length, variants };
}

/** Re-encodes images, a bounded number at a time in this process (one per deps, like the other shared clients). */
export class ImageEncoder {
  readonly #queue = new PQueue({ concurrency: IMAGE_ENCODE_CONCURRENCY });

  /** Inspects (refusing what is not a product image), then waits its turn and encodes. */
  async encode(bytes: Uint8Array): Promise<EncodedImage> {
    const inspected = await inspectImage(bytes);
    return this.#queue.add(() => encodeInspected(bytes, inspected));
  }
}

/** Our own drawings (the demo's) as PNG. Never a caller's SVG: inspectImage refuses those. */
export async function rasterizeSvg(svg: string): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).png().toBuffer();
}
