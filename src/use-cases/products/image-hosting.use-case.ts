// Product images hosted by codrail (issue 23 §3). An image given by URL is fetched once, through
// the guarded outbound path (deadline, streamed byte cap, public addresses only), judged and
// re-encoded (image-encoder.ts); a file is taken from the caller (REST body, CLI path). Either way
// the image is named by the hash of its bytes: one already stored is reused, never encoded again.
// The new files are stored in the transaction that changes the product, so a refused list stores
// nothing at all.
import PQueue from 'p-queue';
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { findImage, findImages, insertImage, productsWithExternalImages } from '../../db/queries/images.queries.ts';
import { findProduct, updateProduct as writeProduct } from '../../db/queries/products.queries.ts';
import { writeTransaction, type Tx } from '../../db/transaction.ts';
import { AppError, type FieldIssue } from '../../errors.ts';
import { OutboundError } from '../../http/outbound/outbound-error.ts';
import { IMAGE_FETCH_CONCURRENCY, IMAGE_FETCH_REDIRECTS, IMAGE_FETCH_TIMEOUT_MS, IMAGE_MAX_BYTES, MAX_PRODUCT_IMAGES } from '../../limits.ts';
import type { Caller } from '../caller.ts';
import { productOf, storeOf } from '../tenancy.ts';
import { ImageRefused, imageIdOf, megabytes, type EncodedImage } from './image-encoder.ts';
import { hostedImageId, isHosted, type HostedImage, type ProductImage } from './images.ts';
import { reloadProduct } from './product-view.ts';
import type { AddProductImageInput, RehostProductImagesInput, HostedImagesReport } from './product.schemas.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;

export type HostDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'outbound' | 'imageEncoder'>;

/** An image as create_product and update_product take it. */
export interface ImageInput {
  url: string;
  alt?: string | undefined;
}

/** What a list of images becomes: the entries to store, the new files to store with them, and what was refused. */
export interface HostedList {
  entries: ProductImage[];
  encoded: EncodedImage[];
  /** One per refused entry, by its field (`images.1.url`). */
  refused: FieldIssue[];
}

/** A product's stored images (tolerating an empty column). */
export const storedImages = (json: string): ProductImage[] => (json ? (JSON.parse(json) as ProductImage[]) : []);

const withAlt = <T extends object>(entry: T, alt: string | undefined): T & { alt?: string } => {
  const { alt: _old, ...rest } = entry as T & { alt?: string };
  return (alt ? { ...rest, alt } : rest) as T & { alt?: string };
};

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const ACCEPT = 'image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1';

/** Why a URL is not fetched, or undefined: https, no credentials; http only from loopback when the operator allows private addresses. */
function urlProblem(deps: Pick<Deps, 'config'>, text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'url must be an absolute https URL';
  }
  const httpLoopback = url.protocol === 'http:' && deps.config.imageUrlsAllowPrivate && LOOPBACK.has(url.hostname);
  if (url.protocol !== 'https:' && !httpLoopback) return 'url must be an https URL';
  if (url.username || url.password) return 'url must not carry credentials';
  return undefined;
}

/** The answer of one GET, through the guarded outbound path; ImageRefused with a reason a seller can act on. */
async function fetchImage(deps: Pick<Deps, 'config' | 'outbound'>, url: string): Promise<Buffer> {
  try {
    const answer = await deps.outbound.send({
      url,
      headers: { accept: ACCEPT },
      addresses: deps.config.imageUrlsAllowPrivate ? 'any' : 'public',
      deadlineMs: IMAGE_FETCH_TIMEOUT_MS,
      maxBytes: IMAGE_MAX_BYTES,
      redirects: IMAGE_FETCH_REDIRECTS,
      what: 'GET image',
    });
    return answer.body;
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    switch (error.kind) {
      case 'too_large':
        throw new ImageRefused(`is larger than ${megabytes(IMAGE_MAX_BYTES)}`);
      case 'status':
        throw new ImageRefused(`could not be fetched: HTTP ${error.status}`);
      case 'timeout':
        throw new ImageRefused(`could not be fetched: no answer within ${IMAGE_FETCH_TIMEOUT_MS / 1000} s`);
      // The resolved address is not repeated to the caller: the guard is not an oracle of internal names.
      case 'blocked':
        throw new ImageRefused('could not be fetched: its address is not a public one');
      default:
        throw new ImageRefused(`could not be fetched: ${error.message.replace(/^GET image: /, '')}`);
    }
  }
}

type Prepared = { image: Omit<HostedImage, 'alt' | 'source'>; encoded?: EncodedImage };

/** The hosted image of these bytes: the stored one, or a new encoding to store with the change (one per content in a call: `pending`). */
async function prepare(deps: HostDeps, bytes: Uint8Array, pending = new Map<string, Promise<Prepared>>()): Promise<Prepared> {
  const id = imageIdOf(bytes);
  let work = pending.get(id);
  if (!work)
    pending.set(
      id,
      (work = (async () => {
        const known = await findImage(deps.db, id);
        if (known) return { image: { id, width: known.width, height: known.height } };
        const encoded = await deps.imageEncoder.encode(bytes);
        return { image: { id, width: encoded.width, height: encoded.height }, encoded };
      })()),
    );
  return work;
}

const sameOrigin = (a: string, b: string) => {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
};

/**
 * Hosts a list of images: hosted entries stay as they are; a URL of an image hosted here is kept
 * (fetched never); a URL this product already hosts (its `source`) is kept; any other URL is fetched
 * once (several at a time, each distinct URL once), judged, and hosted. Nothing is stored here.
 */
export async function hostImageList(deps: HostDeps, items: readonly (ImageInput | ProductImage)[], current: readonly ProductImage[], field = 'images'): Promise<HostedList> {
  const hostedNow = current.filter(isHosted);
  const named = items.flatMap((item) => (isHosted(item) ? [] : [hostedImageId(item.url)])).filter((id): id is string => id !== undefined);
  const rows = new Map((await findImages(deps.db, [...new Set(named)])).map((r) => [r.id, r]));
  const fetches = new Map<string, Promise<Prepared>>();
  const contents = new Map<string, Promise<Prepared>>();
  const queue = new PQueue({ concurrency: IMAGE_FETCH_CONCURRENCY });
  const outcomes = await Promise.all(
    items.map(async (item, index): Promise<{ entry: ProductImage; encoded?: EncodedImage } | { refused: FieldIssue }> => {
      if (isHosted(item)) return { entry: item };
      const at = `${field}.${index}.url`;
      const alt = item.alt;
      const id = hostedImageId(item.url);
      const row = id === undefined ? undefined : rows.get(id);
      if (row) {
        const before = hostedNow.find((e) => e.id === row.id);
        return { entry: withAlt({ id: row.id, width: row.width, height: row.height, ...(before?.source !== undefined && { source: before.source }) }, alt) };
      }
      if (id !== undefined && sameOrigin(item.url, deps.config.baseUrl)) return { refused: { field: at, message: 'url names no image hosted here' } };
      const already = hostedNow.find((e) => e.source === item.url);
      if (already) return { entry: withAlt(already, alt) };
      const problem = urlProblem(deps, item.url);
      if (problem) return { refused: { field: at, message: problem } };
      let pending = fetches.get(item.url);
      if (!pending) fetches.set(item.url, (pending = queue.add(async () => prepare(deps, await fetchImage(deps, item.url), contents))));
      try {
        const { image, encoded } = await pending;
        return { entry: withAlt({ ...image, source: item.url }, alt), ...(encoded && { encoded }) };
      } catch (error) {
        if (error instanceof ImageRefused) return { refused: { field: at, message: `url ${error.message}` } };
        throw error;
      }
    }),
  );
  const entries: ProductImage[] = [];
  const encoded = new Map<string, EncodedImage>();
  const refused: FieldIssue[] = [];
  outcomes.forEach((o, i) => {
    if ('refused' in o) {
      refused.push(o.refused);
      entries.push(items[i]! as ProductImage);
    } else {
      entries.push(o.entry);
      if (o.encoded) encoded.set(o.encoded.id, o.encoded);
    }
  });
  return { entries, encoded: [...encoded.values()], refused };
}

/** A refused list as one invalid_input: every refused entry by its field; the message names the first. */
export function imagesRefused(refused: readonly FieldIssue[]): AppError {
  const first = refused[0]!;
  const more = refused.length > 1 ? ` (and ${refused.length - 1} more)` : '';
  return new AppError('invalid_input', `Image refused (${first.field}): ${first.message}${more}`, [...refused]);
}

/** Hosts the images of create_product / update_product, or refuses the whole list. */
export async function hostImageInputs(deps: HostDeps, items: readonly ImageInput[], current: readonly ProductImage[] = []): Promise<{ entries: ProductImage[]; encoded: EncodedImage[] }> {
  const hosted = await hostImageList(deps, items, current);
  if (hosted.refused.length > 0) throw imagesRefused(hosted.refused);
  return hosted;
}

/** Stores new images and their files (inside the transaction of the change that uses them). */
export async function storeEncoded(tx: Tx, encoded: readonly EncodedImage[], now: string): Promise<void> {
  for (const image of encoded)
    await insertImage(
      tx,
      { id: image.id, width: image.width, height: image.height, source_format: image.sourceFormat, source_bytes: image.sourceBytes, created_at: now },
      image.variants.map((f) => ({ image_id: image.id, width: f.width, format: f.format, bytes: f.bytes, byte_length: f.bytes.length, digest: f.digest })),
    );
}

/** add_product_image: an image file appended to a product's images (the same image again only updates its alt). */
export async function addProductImage(deps: HostDeps, caller: Caller, input: Out<typeof AddProductImageInput>) {
  const { product } = await productOf(deps, caller, input.product_id);
  let prepared: Prepared;
  try {
    prepared = await prepare(deps, input.file);
  } catch (error) {
    if (error instanceof ImageRefused) throw new AppError('invalid_input', `Image refused (file): file ${error.message}`, [{ field: 'file', message: `file ${error.message}` }]);
    throw error;
  }
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, async (tx) => {
    // Read again under the write lock: two uploads at once both land.
    const images = storedImages((await findProduct(tx, product.id))!.images);
    const at = images.findIndex((e) => isHosted(e) && e.id === prepared.image.id);
    if (at >= 0) images[at] = input.alt === undefined ? images[at]! : withAlt(images[at]!, input.alt);
    else if (images.length >= MAX_PRODUCT_IMAGES)
      throw new AppError('conflict', `The product has ${images.length} images, the most it may have`, [{ field: 'product_id', message: `at most ${MAX_PRODUCT_IMAGES} images: remove one first (update_product)` }]);
    else images.push(withAlt(prepared.image, input.alt));
    if (prepared.encoded) await storeEncoded(tx, [prepared.encoded], now);
    await writeProduct(tx, product.id, { images: JSON.stringify(images), updated_at: now });
  });
  return reloadProduct(deps, product.id);
}

/**
 * rehost_product_images: the images of products stored as external URLs (before codrail hosted
 * images) are fetched and hosted, product by product. Idempotent: a hosted image is never fetched
 * again, and a URL that fails stays as it was, reported, for the next run.
 */
export async function rehostProductImages(deps: HostDeps, caller: Caller, input: Out<typeof RehostProductImagesInput>): Promise<Out<typeof HostedImagesReport>> {
  if (input.store_id !== undefined) await storeOf(deps, caller, input.store_id);
  if (input.product_id !== undefined) await productOf(deps, caller, input.product_id);
  const products = await productsWithExternalImages(deps.db, { accountId: caller.accountId, storeId: input.store_id?.toLowerCase(), productId: input.product_id?.toLowerCase() });
  const report: Out<typeof HostedImagesReport> = { products: 0, hosted: 0, failed: [] };
  for (const product of products) {
    const before = storedImages(product.images);
    if (before.every(isHosted)) continue;
    report.products++;
    const result = await hostImageList(deps, before, before);
    for (const r of result.refused) {
      const index = Number(r.field.split('.')[1]);
      report.failed.push({ product_id: product.id, url: (before[index] as { url: string }).url, message: r.message });
    }
    const hosted = result.entries.filter((e, i) => isHosted(e) && !isHosted(before[i]!)).length;
    if (hosted === 0) continue;
    const now = deps.clock.now().toISOString();
    const written = await writeTransaction(deps.db, async (tx) => {
      // A product changed meanwhile keeps its change; the next run hosts what it still lacks.
      if ((await findProduct(tx, product.id))?.images !== product.images) return false;
      await storeEncoded(tx, result.encoded, now);
      await writeProduct(tx, product.id, { images: JSON.stringify(result.entries), updated_at: now });
      return true;
    });
    if (written) report.hosted += hosted;
    else report.failed.push({ product_id: product.id, url: null, message: 'the product changed while its images were fetched: run again' });
  }
  return report;
}
