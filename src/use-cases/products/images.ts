// Product images hosted by codrail (issue 23 §3; SPEC 19: "the page makes no request to another
// host"): what a product stores for each image, the URLs of its re-encoded files, and the `srcset`s
// a page builds from them. Pure: the page renderer imports it; nothing here touches sharp, the
// database or the network.
import { IMAGE_MIN_SIDE } from '../../limits.ts';

/** Widths every hosted image is re-encoded at: those ≤ its own width, or its own width when it is narrower than the first. */
export const IMAGE_WIDTHS = [320, 640, 960, 1280] as const;

/** Formats, smallest first; the JPEG is the fallback every browser shows (the `src`). */
export const IMAGE_FORMATS = ['avif', 'webp', 'jpeg'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** The extension of each format in `/img/` file names, and the Content-Type it is served with. */
export const IMAGE_EXTENSIONS: Readonly<Record<ImageFormat, string>> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };
export const IMAGE_CONTENT_TYPES: Readonly<Record<ImageFormat, string>> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' };

/** Where hosted image files are served: `/img/<id>-<width>.<avif|webp|jpg>`. */
export const IMAGE_PATH_PREFIX = '/img/';

/** An image codrail hosts: its id names the stored files; width and height are those of the largest one. */
export interface HostedImage {
  id: string;
  alt?: string;
  width: number;
  height: number;
  /** The URL it was fetched from, when it came from one. */
  source?: string;
}

/** An image stored before codrail hosted images: an external https URL, shown as it is until it is hosted (`products images rehost`). */
export interface ExternalImage {
  url: string;
  alt?: string;
}

/** One entry of a product's `images` JSON, in display order. */
export type ProductImage = HostedImage | ExternalImage;

export interface ImageSet {
  /** The JPEG at the largest width: the `<img src>`. */
  src: string;
  width: number;
  height: number;
  /** `srcset` per format, e.g. `/img/<id>-640.avif 640w, /img/<id>-960.avif 960w`. */
  srcset: Record<ImageFormat, string>;
}

export const isHosted = (entry: ProductImage): entry is HostedImage => typeof (entry as HostedImage).id === 'string';

/** The widths of an image's files, from the width of its largest one. */
export function variantWidths(largest: number): number[] {
  const widths = IMAGE_WIDTHS.filter((w) => w <= largest);
  return widths.length > 0 ? widths : [largest];
}

/** The path of one file: `/img/<id>-<width>.<ext>`. */
export const imagePath = (id: string, width: number, format: ImageFormat): string => `${IMAGE_PATH_PREFIX}${id}-${width}.${IMAGE_EXTENSIONS[format]}`;

/**
 * What an `<img>`/`<picture>` needs for a hosted image: paths relative to the server without
 * `baseUrl` (a page served by codrail), absolute with it (an embedded checkout, an API answer);
 * undefined for an external image, which has no files here.
 */
export function imageSet(entry: ProductImage, baseUrl?: string): ImageSet | undefined {
  if (!isHosted(entry)) return undefined;
  const base = baseUrl === undefined ? '' : baseUrl.replace(/\/+$/, '');
  const widths = variantWidths(entry.width);
  const srcset = (format: ImageFormat) => widths.map((w) => `${base}${imagePath(entry.id, w, format)} ${w}w`).join(', ');
  return {
    src: `${base}${imagePath(entry.id, entry.width, 'jpeg')}`,
    width: entry.width,
    height: entry.height,
    srcset: { avif: srcset('avif'), webp: srcset('webp'), jpeg: srcset('jpeg') },
  };
}

/** An image's URL as callers see it: the largest JPEG of a hosted one, the URL of an external one. */
export const imageUrl = (entry: ProductImage, baseUrl: string): string => imageSet(entry, baseUrl)?.src ?? (entry as ExternalImage).url;

/** `<id>-<width>.<ext>`: an id is 22 base64url characters (the first 132 bits of a SHA-256). */
const FILE = /^([A-Za-z0-9_-]{22})-([1-9][0-9]{2,3})\.(avif|webp|jpg)$/;
const FORMAT_OF: Readonly<Record<string, ImageFormat>> = { avif: 'avif', webp: 'webp', jpg: 'jpeg' };

/** A file name as `/img/:file` receives it; undefined for any name no stored file can have. */
export function parseImageFile(name: string): { id: string; width: number; format: ImageFormat } | undefined {
  const m = FILE.exec(name);
  if (!m) return undefined;
  const width = Number(m[2]);
  // A file is one of the fixed widths, or the one width of an image narrower than the first (and no narrower than the least image).
  if (width < IMAGE_MIN_SIDE || width > IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]! || (width > IMAGE_WIDTHS[0] && !(IMAGE_WIDTHS as readonly number[]).includes(width))) return undefined;
  return { id: m[1]!, width, format: FORMAT_OF[m[3]!]! };
}

/** The hosted image a URL names (`…/img/<id>-<width>.<ext>`, on any host), if it is such a URL. */
export function hostedImageId(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  if (!path.startsWith(IMAGE_PATH_PREFIX)) return undefined;
  return parseImageFile(path.slice(IMAGE_PATH_PREFIX.length))?.id;
}
