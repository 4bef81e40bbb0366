// Landing pages (MCP-TOOLS.md §6.6): created unpublished, published only when ready (product
// active, packs exist, store open with a checkout domain), unpublished keeping their content,
// deleted only while unpublished. The public page is /l/<slug>; orders post with its id (mode 1).
import type * as v from 'valibot';
import type { Deps } from '../../app.ts';
import { newId } from '../../ids.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { answeringUnique } from '../../db/unique-violation.ts';
import { deleteLanding as removeLanding, findLanding, findLandingBySlug, insertLanding, listLandingPage, updateLanding } from '../../db/queries/landings.queries.ts';
import { listPacks } from '../../db/queries/products.queries.ts';
import { detachOrdersFromLanding } from '../../db/queries/orders.queries.ts';
import { conflict, fieldError, invalidState, type FieldIssue } from '../../errors.ts';
import type { Caller } from '../caller.ts';
import { hostImageList, imagesRefused, storeEncoded, type HostDeps } from '../products/image-hosting.use-case.ts';
import type { EncodedImage } from '../products/image-encoder.ts';
import { imageUrl, isHosted, type HostedImage } from '../products/images.ts';
import { clampLimit, keysetPage, pageAfter } from '../pagination.ts';
import { landingOf, productOf, storeOf, type LandingRow, type ProductRow, type StoreRow } from '../tenancy.ts';
import type {
  CreateLandingPageInput,
  DeletedLandingPage,
  GetLandingPageInput,
  LandingPage,
  LandingPagePage,
  LandingSummary,
  ListLandingPagesInput,
  Section,
  SectionInput,
  SetLandingSectionsInput,
  UpdateLandingPageInput,
} from './landing.schemas.ts';

type Out<S extends v.GenericSchema> = v.InferOutput<S>;

/** A section as stored: a hosted image beside its `image_url` (issue 23 §3: the page loads nothing from elsewhere). */
export type StoredSection = Omit<Out<typeof Section>, 'image_url'> & { image_url?: string; image?: HostedImage };

const storedSections = (json: string): StoredSection[] => JSON.parse(json) as StoredSection[];

/** A section as callers see it: a hosted image's URL is codrail's (from the base URL of now), the stored entry stays inside. */
function sectionView(deps: Pick<Deps, 'config'>, s: StoredSection): Out<typeof Section> {
  const { image, ...rest } = s;
  return image ? { ...rest, image_url: imageUrl(image, deps.config.baseUrl) } : rest;
}

/**
 * Hosts the sections' images like product images (fetched once through the guarded outbound path,
 * re-encoded, stored by content hash): an image this page already hosts from that URL, or a URL of
 * an image hosted here, is kept without fetching. A refused image refuses the whole list.
 */
async function hostSections(deps: HostDeps, sections: readonly Out<typeof SectionInput>[], current: readonly StoredSection[]): Promise<{ sections: StoredSection[]; encoded: EncodedImage[] }> {
  const withImage = sections.flatMap((section, index) => (section.image_url ? [{ section, index, url: section.image_url }] : []));
  if (withImage.length === 0) return { sections: [...sections], encoded: [] };
  const hosted = await hostImageList(
    deps,
    withImage.map((w) => ({ url: w.url })),
    current.flatMap((s) => (s.image ? [s.image] : [])),
    'sections',
  );
  if (hosted.refused.length > 0)
    throw imagesRefused(hosted.refused.map((r) => ({ field: `sections.${withImage[Number(r.field.split('.')[1])]!.index}.image_url`, message: r.message.replace(/^url /, 'image_url ') })));
  const out: StoredSection[] = [...sections];
  withImage.forEach((w, k) => {
    const entry = hosted.entries[k]!;
    if (isHosted(entry)) out[w.index] = { ...w.section, image: { id: entry.id, width: entry.width, height: entry.height, ...(entry.source !== undefined && { source: entry.source }) } };
  });
  return { sections: out, encoded: hosted.encoded };
}

export const landingUrl = (deps: Pick<Deps, 'config'>, slug: string) => `${deps.config.baseUrl}/l/${slug}`;

export function landingSummary(deps: Pick<Deps, 'config'>, l: LandingRow): Out<typeof LandingSummary> {
  return {
    id: l.id,
    store_id: l.store_id,
    product_id: l.product_id,
    slug: l.slug,
    title: l.title,
    published: l.published === 1,
    url: landingUrl(deps, l.slug),
    created_at: l.created_at,
    updated_at: l.updated_at,
  };
}

export function landingView(deps: Pick<Deps, 'config'>, l: LandingRow): Out<typeof LandingPage> {
  return {
    ...landingSummary(deps, l),
    status: l.published === 1 ? 'published' : 'unpublished',
    published_at: l.published_at,
    sections: storedSections(l.sections).map((section) => sectionView(deps, section)),
    seo_title: l.seo_title,
    seo_description: l.seo_description,
    theme: JSON.parse(l.theme) as Out<typeof LandingPage>['theme'],
    order_url: `${deps.config.baseUrl}/api/orders/create`,
  };
}

const reload = async (deps: Pick<Deps, 'db' | 'config'>, id: string) => landingView(deps, (await findLanding(deps.db, id))!);

/** What keeps a page from going live; empty when it may be published. */
async function readinessProblems(deps: Pick<Deps, 'db'>, product: ProductRow, store: StoreRow): Promise<FieldIssue[]> {
  const problems: FieldIssue[] = [];
  if (store.archived_at !== null) problems.push({ field: 'store_id', message: 'the store is archived' });
  if (product.status !== 'active') problems.push({ field: 'product_id', message: `the product is ${product.status}: activate it with update_product status active` });
  if ((await listPacks(deps.db, product.id)).length === 0) problems.push({ field: 'product_id', message: 'the product has no packs: set_product_packs first' });
  if ((JSON.parse(store.allowed_domains) as string[]).length === 0) problems.push({ field: 'store_id', message: 'the store has no checkout domain: add_store_domain first' });
  return problems;
}

async function assertReady(deps: Pick<Deps, 'db'>, product: ProductRow, store: StoreRow): Promise<void> {
  const problems = await readinessProblems(deps, product, store);
  if (problems.length > 0) throw invalidState('The landing page is not ready to publish', problems);
}

const slugTaken = (slug: string) => conflict(`Slug ${slug} is taken`, [{ field: 'slug', message: 'another landing page uses this slug' }]);

/**
 * The early answer, before images are fetched. The unique index decides (two requests may both
 * pass here): each write below turns its refusal into the same 409 (answeringUnique).
 */
async function freeSlug(deps: Pick<Deps, 'db'>, slug: string, exceptId?: string): Promise<void> {
  const other = await findLandingBySlug(deps.db, slug);
  if (other && other.id !== exceptId) throw slugTaken(slug);
}

export async function createLandingPage(deps: HostDeps, caller: Caller, input: Out<typeof CreateLandingPageInput>) {
  const { product, store } = await productOf(deps, caller, input.product_id);
  if (input.store_id !== undefined && (await storeOf(deps, caller, input.store_id)).id !== store.id) throw fieldError('product_id', 'the product belongs to another store');
  await freeSlug(deps, input.slug);
  if (input.publish) await assertReady(deps, product, store);
  const hosted = await hostSections(deps, input.sections ?? [], []);
  const now = deps.clock.now().toISOString();
  const id = newId();
  await answeringUnique(writeTransaction(deps.db, async (tx) => {
    await storeEncoded(tx, hosted.encoded, now);
    await insertLanding(tx, {
      id,
      store_id: store.id,
      product_id: product.id,
      slug: input.slug,
      title: input.title ?? product.name,
      published: input.publish ? 1 : 0,
      sections: JSON.stringify(hosted.sections),
      seo_title: input.seo_title || null,
      seo_description: input.seo_description || null,
      theme: JSON.stringify(input.theme ?? {}),
      published_at: input.publish ? now : null,
      created_at: now,
      updated_at: now,
    });
  }), { 'landing_pages(slug)': () => slugTaken(input.slug) });
  return reload(deps, id);
}

export async function getLandingPage(deps: Pick<Deps, 'db' | 'config'>, caller: Caller, input: Out<typeof GetLandingPageInput>) {
  return landingView(deps, (await landingOf(deps, caller, input.landing_page_id)).landing);
}

export async function listLandingPages(deps: Pick<Deps, 'db' | 'config'>, caller: Caller, input: Out<typeof ListLandingPagesInput>): Promise<Out<typeof LandingPagePage>> {
  if (input.store_id !== undefined) await storeOf(deps, caller, input.store_id);
  if (input.product_id !== undefined) await productOf(deps, caller, input.product_id);
  const limit = clampLimit(input.limit);
  const rows = await listLandingPage(deps.db, {
    accountId: caller.accountId,
    storeId: input.store_id?.toLowerCase(),
    productId: input.product_id?.toLowerCase(),
    published: input.status === undefined ? undefined : input.status === 'published',
    text: input.query,
    after: pageAfter(input.cursor),
    limit: limit + 1,
  });
  return keysetPage(rows, limit, (l) => landingSummary(deps, l));
}

export async function updateLandingPage(deps: Pick<Deps, 'db' | 'clock' | 'config'>, caller: Caller, input: Out<typeof UpdateLandingPageInput>) {
  const { landing, store } = await landingOf(deps, caller, input.landing_page_id);
  if (input.slug !== undefined) await freeSlug(deps, input.slug, landing.id);
  if (input.product_id !== undefined) {
    const { product } = await productOf(deps, caller, input.product_id);
    if (product.store_id !== store.id) throw fieldError('product_id', "the product must belong to the page's store");
    // A live page must keep selling something that can be ordered.
    if (landing.published === 1) await assertReady(deps, product, store);
  }
  const theme = input.theme === undefined ? undefined : { ...(JSON.parse(landing.theme) as object), ...input.theme };
  await answeringUnique(updateLanding(deps.db, landing.id, {
    ...(input.title !== undefined && { title: input.title }),
    ...(input.slug !== undefined && { slug: input.slug }),
    ...(input.product_id !== undefined && { product_id: input.product_id.toLowerCase() }),
    ...(input.seo_title !== undefined && { seo_title: input.seo_title || null }),
    ...(input.seo_description !== undefined && { seo_description: input.seo_description || null }),
    ...(theme !== undefined && { theme: JSON.stringify(theme) }),
    updated_at: deps.clock.now().toISOString(),
  }), { 'landing_pages(slug)': () => slugTaken(String(input.slug)) });
  return reload(deps, landing.id);
}

export async function setLandingSections(deps: HostDeps, caller: Caller, input: Out<typeof SetLandingSectionsInput>) {
  const { landing } = await landingOf(deps, caller, input.landing_page_id);
  const hosted = await hostSections(deps, input.sections, storedSections(landing.sections));
  const now = deps.clock.now().toISOString();
  await writeTransaction(deps.db, async (tx) => {
    await storeEncoded(tx, hosted.encoded, now);
    await updateLanding(tx, landing.id, { sections: JSON.stringify(hosted.sections), updated_at: now });
  });
  return reload(deps, landing.id);
}

/** Publishing a published page changes nothing; readiness is checked every time. */
export async function publishLandingPage(deps: Pick<Deps, 'db' | 'clock' | 'config'>, caller: Caller, input: Out<typeof GetLandingPageInput>) {
  const { landing, store } = await landingOf(deps, caller, input.landing_page_id);
  const { product } = await productOf(deps, caller, landing.product_id);
  await assertReady(deps, product, store);
  if (landing.published === 0) {
    const now = deps.clock.now().toISOString();
    await updateLanding(deps.db, landing.id, { published: 1, published_at: now, updated_at: now });
  }
  return reload(deps, landing.id);
}

export async function unpublishLandingPage(deps: Pick<Deps, 'db' | 'clock' | 'config'>, caller: Caller, input: Out<typeof GetLandingPageInput>) {
  const { landing } = await landingOf(deps, caller, input.landing_page_id);
  if (landing.published === 1) await updateLanding(deps.db, landing.id, { published: 0, updated_at: deps.clock.now().toISOString() });
  return reload(deps, landing.id);
}

/** Only an unpublished page; the orders it took are kept, without the link to it. */
export async function deleteLandingPage(deps: Pick<Deps, 'db' | 'config'>, caller: Caller, input: Out<typeof GetLandingPageInput>): Promise<Out<typeof DeletedLandingPage>> {
  const { landing } = await landingOf(deps, caller, input.landing_page_id);
  if (landing.published === 1) throw invalidState('The landing page is published: unpublish it first', [{ field: 'landing_page_id', message: 'published' }]);
  const detached = await writeTransaction(deps.db, async (tx) => {
    const orders = await detachOrdersFromLanding(tx, landing.id);
    const gone = await removeLanding(tx, landing.id);
    // Published in between by another process: nothing deleted, nothing detached.
    if (Number(gone.numDeletedRows) === 0) throw invalidState('The landing page is published: unpublish it first', [{ field: 'landing_page_id', message: 'published' }]);
    return Number(orders.numUpdatedRows);
  });
  return { id: landing.id, slug: landing.slug, deleted: true, orders_detached: detached };
}
