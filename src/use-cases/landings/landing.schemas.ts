// Landing pages (MCP-TOOLS.md §6.6): inputs and outputs. A section is one flat object with a `type`
// (no oneOf, which some clients reject, §3.4); the page renders the fields its type uses.
import * as v from 'valibot';
import {
  MAX_SECTION_ITEMS,
  MAX_SECTIONS,
  SECTION_BODY_MAX,
  SECTION_HEADING_MAX,
  SECTION_ITEM_TEXT_MAX,
  SECTION_ITEM_TITLE_MAX,
  SEO_DESCRIPTION_MAX,
  SEO_TITLE_MAX,
  SLUG_PATTERN,
} from '../../limits.ts';
import { cursorInput, limitInput } from '../pagination.ts';
import { booleanInput, nameInput, nullableTimestamp, optionalText, pageOf, textInput, timestamp, uuidInput } from '../fields.ts';
import { imageUrlInput } from '../products/product.schemas.ts';

export const SECTION_TYPES = ['hero', 'benefits', 'testimonials', 'faq', 'guarantee', 'gallery', 'text', 'cta'] as const;
export const FONTS = ['system', 'serif', 'rounded', 'mono'] as const;

const landingId = uuidInput('landing_page_id', 'Landing page id (see list_landing_pages).');

export const SectionInput = v.strictObject({
  type: v.pipe(v.picklist(SECTION_TYPES, `type must be one of ${SECTION_TYPES.join(', ')}`), v.description('Section kind.')),
  heading: optionalText('heading', SECTION_HEADING_MAX, 'Section title.'),
  body: optionalText('body', SECTION_BODY_MAX, 'Paragraph text (plain text; line breaks kept).', true),
  image_url: v.optional(imageUrlInput('image_url', 'https URL, fetched once and hosted.')),
  items: v.optional(
    v.pipe(
      v.array(
        v.strictObject({
          title: textInput('title', 1, SECTION_ITEM_TITLE_MAX, 'Item title: a benefit, a question, a reviewer name.'),
          text: optionalText('text', SECTION_ITEM_TEXT_MAX, 'Item text: the answer, the review.', true),
        }),
      ),
      v.maxLength(MAX_SECTION_ITEMS, `at most ${MAX_SECTION_ITEMS} items`),
      v.description('List entries: benefits, testimonials, FAQ questions and answers.'),
    ),
  ),
});

const sections = (min: 0 | 1) =>
  min === 0
    ? v.pipe(v.array(SectionInput), v.maxLength(MAX_SECTIONS, `at most ${MAX_SECTIONS} sections`), v.description('The page sections, top to bottom.'))
    : v.pipe(v.array(SectionInput), v.minLength(1, 'sections needs at least 1 section'), v.maxLength(MAX_SECTIONS, `at most ${MAX_SECTIONS} sections`), v.description('The page sections, top to bottom.'));

const slug = v.pipe(
  v.string('slug must be a string'),
  v.trim(),
  v.toLowerCase(),
  v.regex(SLUG_PATTERN, 'slug must be lower-case letters, digits and dashes (1–80)'),
  v.description('URL name: the page lives at /l/<slug>; unique across the server.'),
);

const theme = v.pipe(
  v.strictObject({
    primary_color: v.optional(v.pipe(v.string('primary_color must be a string'), v.regex(/^#[0-9a-fA-F]{6}$/, 'primary_color must be a hex colour like #0a7d4f'), v.description('Buttons and accents, #rrggbb.'))),
    font: v.optional(v.pipe(v.picklist(FONTS, `font must be one of ${FONTS.join(', ')}`), v.description(`Font family (system fonts only: ${FONTS.join(', ')}).`))),
  }),
  v.description('Look of the page; omitted keys stay as they are.'),
);

export const CreateLandingPageInput = v.strictObject({
  store_id: v.optional(uuidInput('store_id', "Store id; default: the product's store.")),
  product_id: uuidInput('product_id', 'The product the page sells (from list_products).'),
  slug,
  title: v.optional(nameInput('title', 'Page title (default: the product name).')),
  sections: v.optional(sections(0)),
  seo_title: optionalText('seo_title', SEO_TITLE_MAX, 'Title for search engines and link previews.'),
  seo_description: optionalText('seo_description', SEO_DESCRIPTION_MAX, 'Description for search engines and link previews.'),
  theme: v.optional(theme),
  publish: v.optional(booleanInput('publish', 'Publish at once (same readiness checks as publish_landing_page; default false).')),
});

export const GetLandingPageInput = v.strictObject({ landing_page_id: landingId });

export const ListLandingPagesInput = v.strictObject({
  store_id: v.optional(uuidInput('store_id', 'Only this store; omit for every store of the account.')),
  product_id: v.optional(uuidInput('product_id', 'Only pages selling this product.')),
  status: v.optional(v.pipe(v.picklist(['published', 'unpublished'], 'status must be published or unpublished'), v.description('Only published or only unpublished pages.'))),
  query: v.optional(textInput('query', 1, 100, 'Title or slug contains this text.')),
  cursor: cursorInput,
  limit: limitInput,
});

export const UpdateLandingPageInput = v.strictObject({
  landing_page_id: landingId,
  title: v.optional(nameInput('title', 'New title.')),
  slug: v.optional(slug),
  product_id: v.optional(uuidInput('product_id', 'Another product of the same store.')),
  seo_title: optionalText('seo_title', SEO_TITLE_MAX, 'Title for search engines; "" removes it.'),
  seo_description: optionalText('seo_description', SEO_DESCRIPTION_MAX, 'Description for search engines; "" removes it.'),
  theme: v.optional(theme),
});

export const SetLandingSectionsInput = v.strictObject({ landing_page_id: landingId, sections: sections(1) });

export const Section = v.object({
  type: v.picklist(SECTION_TYPES),
  heading: v.optional(v.string()),
  body: v.optional(v.string()),
  image_url: v.optional(v.string()),
  items: v.optional(v.array(v.object({ title: v.string(), text: v.optional(v.string()) }))),
});

export const LandingSummary = v.object({
  id: v.string(),
  store_id: v.string(),
  product_id: v.string(),
  slug: v.string(),
  title: v.string(),
  published: v.boolean(),
  url: v.pipe(v.string(), v.description('The public page.')),
  created_at: timestamp('Creation time, ISO-8601 UTC.'),
  updated_at: timestamp('Last change, ISO-8601 UTC.'),
});

export const LandingPage = v.object({
  ...LandingSummary.entries,
  status: v.picklist(['published', 'unpublished']),
  published_at: nullableTimestamp('When it was last published.'),
  sections: v.array(Section),
  seo_title: v.nullable(v.string()),
  seo_description: v.nullable(v.string()),
  theme: v.object({ primary_color: v.optional(v.string()), font: v.optional(v.picklist(FONTS)) }),
  order_url: v.pipe(v.string(), v.description('Where the page posts its orders (mode 1 with landing_page_id).')),
});

export const LandingPagePage = pageOf(LandingSummary);

export const DeletedLandingPage = v.object({ id: v.string(), slug: v.string(), deleted: v.literal(true), orders_detached: v.pipe(v.number(), v.description('Orders it had taken; they are kept, without the page link.')) });
