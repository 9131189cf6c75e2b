import { z } from "zod";
import { firstErrorPerField } from "#app/lib/field-errors.ts";
import { breaksTextRule, type TextRule } from "#app/lib/text-rules.ts";
import { BLOG_CATEGORIES, PRESS_CATEGORY, SLUG_PATTERN } from "../content-rules.ts";
import {
  DEFAULT_ARTICLE_CATEGORY,
  POST_KINDS,
  POST_LIMITS,
  type PostField,
  type PostFields,
  type PostKind,
} from "./post-fields.ts";

// One definition of what a post may contain (issue 24), used by the editor in the browser for
// instant feedback and by the store and the JSON API for the final word. No server imports. Every
// message says what to do, in the editor's words ("the summary", "the address"), not the field's.
// Drafts may be incomplete: these schemas check limits and shapes; what a post needs before it can
// be published is publishProblems().

export type PostFieldErrors = Partial<Record<PostField | "revision" | "at" | "autosave" | "form", string>>;

const count = (value: number) => value.toLocaleString("en-GB");
const keepTo = (what: string, max: number) => `Keep ${what} to ${count(max)} characters or fewer`;
const NOT_TEXT = "Enter text here";

/**
 * Text with a limit: trimmed (a body keeps its indentation: only its line breaks are normalised),
 * control characters refused with a message naming the field.
 */
function text(
  what: string,
  max: number,
  rule: TextRule,
  { trim = true, missing = NOT_TEXT, tooLong = keepTo(what, max) } = {},
) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? missing : NOT_TEXT) })
    .transform((value) => value.replace(/\r\n?/g, "\n"))
    .refine((value) => !breaksTextRule(value, rule), {
      message: `Remove the invisible control characters from ${what}`,
      abort: true,
    })
    .transform((value) => (trim ? value.trim() : value))
    .refine((value) => value.length <= max, tooLong);
}

/** "" and null mean "none" for the optional fields; forms send "" for an empty box. */
const blankToNull = (value: unknown) => (value === "" || value === null ? null : value);

/** A media library image's id (migration 026: an integer), or an imported press logo under /press/. */
const MEDIA_REFERENCE = /^(?:[1-9]\d{0,14}|\/press\/[a-z0-9-]+\.(?:svg|png|jpe?g|webp))$/;

/** The media library id a cover names, or null for a /press/ path. */
export function mediaIdOf(coverImage: string | null): number | null {
  return coverImage !== null && /^\d+$/.test(coverImage) ? Number(coverImage) : null;
}

export const MESSAGES = {
  kind: "Choose whether this is an article or a press item",
  titleRequired: "Give the post a title",
  slugRequired: "Enter the address the post will have under /blog/",
  slugPattern: "Use lower-case letters, digits and single hyphens only, such as hidden-costs-of-delay",
  category: "Choose a category",
  articleCategory: "Choose a category for the article: Press Coverage is for press items",
  tags: `Use at most ${POST_LIMITS.tags} tags`,
  tagEmpty: "Remove the empty tag",
  coverImage: "Choose an image from the media library",
  originalUrl: "Enter the original article's full address, starting with https://",
  featured: "Choose whether the item is featured",
  readTime: `Enter the reading time in whole minutes, from 1 to ${POST_LIMITS.readTime}`,
  authorUserId: "Choose a staff member as the author",
  revision: "Send the revision you edited, as a whole number",
  unknownField: (name: string) => `“${name}” is not a field of a post`,
  excerptRequired: "Write a summary: lists, feeds and search results show it",
  bodyRequired: "Write the text of the article",
  outletRequired: "Name the publication",
  originalUrlRequired: "Add the address of the original article",
  coverAltRequired: "Describe the cover image for people who cannot see it",
} as const;

/** Each editable field's rule, alone (the editor checks a field as it is left). */
export const PostFieldSchemas = {
  kind: z.enum(POST_KINDS, MESSAGES.kind),
  title: text("the title", POST_LIMITS.title, "one-line-no-bidi", { missing: MESSAGES.titleRequired }).refine(
    (value) => value.length > 0,
    MESSAGES.titleRequired,
  ),
  slug: z
    .string({ error: MESSAGES.slugRequired })
    .trim()
    .min(1, MESSAGES.slugRequired)
    .max(POST_LIMITS.slug, keepTo("the address", POST_LIMITS.slug))
    .regex(SLUG_PATTERN, MESSAGES.slugPattern),
  excerpt: text("the summary", POST_LIMITS.excerpt, "multi-line"),
  body: text("the text", POST_LIMITS.body, "multi-line", { trim: false }),
  tags: z.preprocess(
    // A form sends one box of comma-separated tags; the API a list.
    (value) => (typeof value === "string" ? value.split(",").filter((tag) => tag.trim() !== "") : value),
    z
      .array(
        text("each tag", POST_LIMITS.tag, "one-line-no-bidi").refine(
          (value) => value.length > 0,
          MESSAGES.tagEmpty,
        ),
        { error: "Enter the tags as a list" },
      )
      .max(POST_LIMITS.tags, MESSAGES.tags)
      // The same tag twice (whatever its case) is kept once, as first written.
      .transform((tags) =>
        tags.filter(
          (tag, index) => tags.findIndex((other) => other.toLowerCase() === tag.toLowerCase()) === index,
        ),
      ),
  ),
  category: z.enum(BLOG_CATEGORIES, MESSAGES.category),
  author: text("the author's name", POST_LIMITS.author, "one-line-no-bidi"),
  authorUserId: z.preprocess(
    (value) => (typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : blankToNull(value)),
    z.int(MESSAGES.authorUserId).positive(MESSAGES.authorUserId).nullable(),
  ),
  coverImage: z.preprocess(
    // The media API answers ids as numbers; a post keeps them as text beside /press/ paths.
    (value) =>
      typeof value === "number" && Number.isSafeInteger(value) ? String(value) : blankToNull(value),
    z
      .string({ error: MESSAGES.coverImage })
      .trim()
      .max(POST_LIMITS.coverImage, MESSAGES.coverImage)
      .regex(MEDIA_REFERENCE, MESSAGES.coverImage)
      .nullable(),
  ),
  coverAlt: text("the image description", POST_LIMITS.coverAlt, "one-line-no-bidi"),
  seoTitle: text("the search title", POST_LIMITS.seoTitle, "one-line-no-bidi", {
    tooLong: `${keepTo("the search title", POST_LIMITS.seoTitle)}, or search engines cut it short`,
  }),
  seoDescription: text("the search description", POST_LIMITS.seoDescription, "one-line-no-bidi", {
    tooLong: `${keepTo("the search description", POST_LIMITS.seoDescription)}, or search engines cut it short`,
  }),
  outlet: text("the publication's name", POST_LIMITS.outlet, "one-line-no-bidi"),
  originalUrl: z.preprocess(
    blankToNull,
    z
      .string({ error: MESSAGES.originalUrl })
      .trim()
      .max(POST_LIMITS.originalUrl, keepTo("the address", POST_LIMITS.originalUrl))
      .pipe(z.url({ protocol: /^https$/, hostname: z.regexes.domain, error: MESSAGES.originalUrl }))
      .nullable(),
  ),
  featured: z.preprocess(
    (value) =>
      value === "true" || value === "on" ? true : value === "false" || value === "" ? false : value,
    z.boolean(MESSAGES.featured),
  ),
  note: text("the note", POST_LIMITS.note, "one-line-no-bidi"),
  readTime: z.preprocess(
    (value) => (typeof value === "string" && /^\d{1,3}$/.test(value) ? Number(value) : blankToNull(value)),
    z
      .int(MESSAGES.readTime)
      .min(1, MESSAGES.readTime)
      .max(POST_LIMITS.readTime, MESSAGES.readTime)
      .nullable(),
  ),
} satisfies Record<PostField, z.ZodType>;

const optionalFields = Object.fromEntries(
  Object.entries(PostFieldSchemas).map(([name, schema]) => [name, schema.optional()]),
) as { [K in PostField]: z.ZodOptional<(typeof PostFieldSchemas)[K]> };

const unknownKeys = {
  error: (issue: { code?: string; keys?: string[] }) =>
    issue.code === "unrecognized_keys" ? MESSAGES.unknownField(issue.keys?.[0] ?? "") : undefined,
};

/**
 * The slug sent is the title's suggestion (the editor suggests it as you type), not a choice: when
 * another post has it, the post takes the next free one (-2, -3…) instead of being refused.
 */
const SLUG_FROM_TITLE = z.boolean("Send slugFromTitle as true or false").optional();

/** A new draft: a title and a kind at least (POST /api/admin/posts, the editor's first save). */
export const PostCreateSchema = z.strictObject(
  {
    ...optionalFields,
    kind: PostFieldSchemas.kind,
    title: PostFieldSchemas.title,
    // No address yet: one is suggested from the title.
    slug: z.preprocess((value) => (value === "" ? undefined : value), PostFieldSchemas.slug.optional()),
    slugFromTitle: SLUG_FROM_TITLE,
  },
  unknownKeys,
);
export type PostCreateInput = z.infer<typeof PostCreateSchema>;

/** A save (PATCH /api/admin/posts/:id): the revision it was made on, and the fields it changes. */
export const PostPatchSchema = z.strictObject(
  {
    ...optionalFields,
    revision: z.int(MESSAGES.revision).min(1, MESSAGES.revision),
    /** An automatic save while editing (revisions collapse; see posts-store.server.ts). */
    autosave: z.boolean("Send autosave as true or false").optional(),
    slugFromTitle: SLUG_FROM_TITLE,
  },
  unknownKeys,
);
export type PostPatchInput = z.infer<typeof PostPatchSchema>;
export type PostChanges = Partial<PostFields>;

export type Parsed<T> = { success: true; data: T } | { success: false; errors: PostFieldErrors };

/** Every field's first message, keyed by the field ("form" for the body as a whole). */
export function fieldErrors(error: z.ZodError): PostFieldErrors {
  return firstErrorPerField(error) as PostFieldErrors;
}

function parseWith<T>(schema: z.ZodType<T>, body: unknown): Parsed<T> {
  const result = schema.safeParse(body);
  return result.success
    ? { success: true, data: result.data }
    : { success: false, errors: fieldErrors(result.error) };
}

export const parsePostCreate = (body: unknown): Parsed<PostCreateInput> => parseWith(PostCreateSchema, body);
export const parsePostPatch = (body: unknown): Parsed<PostPatchInput> => parseWith(PostPatchSchema, body);

/** The fields of a new post: what was given, the rest empty; a press item's category is Press Coverage. */
export function newPostFields(input: Omit<PostCreateInput, "slugFromTitle"> & { slug: string }): PostFields {
  const kind: PostKind = input.kind;
  return withKindRules({
    kind,
    slug: input.slug,
    title: input.title,
    excerpt: input.excerpt ?? "",
    body: input.body ?? "",
    tags: input.tags ?? [],
    category: input.category ?? (kind === "press" ? PRESS_CATEGORY : DEFAULT_ARTICLE_CATEGORY),
    author: input.author ?? "",
    authorUserId: input.authorUserId ?? null,
    coverImage: input.coverImage ?? null,
    coverAlt: input.coverAlt ?? "",
    seoTitle: input.seoTitle ?? "",
    seoDescription: input.seoDescription ?? "",
    outlet: input.outlet ?? "",
    originalUrl: input.originalUrl ?? null,
    featured: input.featured ?? false,
    note: input.note ?? "",
    readTime: input.readTime ?? null,
  });
}

/** A press item is always in Press Coverage. */
export function withKindRules(fields: PostFields): PostFields {
  return fields.kind === "press" && fields.category !== PRESS_CATEGORY
    ? { ...fields, category: PRESS_CATEGORY }
    : fields;
}

/** What is wrong with a whole post's fields together (a save is refused with these). */
export function checkPostFields(fields: PostFields): PostFieldErrors {
  const errors: PostFieldErrors = {};
  if (fields.kind === "article" && fields.category === PRESS_CATEGORY)
    errors.category = MESSAGES.articleCategory;
  return errors;
}

/** What a post still needs before it can be published (or scheduled); empty when it is ready. */
export function publishProblems(fields: PostFields): PostFieldErrors {
  const errors: PostFieldErrors = { ...checkPostFields(fields) };
  if (!fields.title.trim()) errors.title = MESSAGES.titleRequired;
  if (!fields.excerpt.trim()) errors.excerpt = MESSAGES.excerptRequired;
  if (fields.kind === "article" && !fields.body.trim()) errors.body = MESSAGES.bodyRequired;
  if (fields.kind === "press") {
    if (!fields.outlet.trim()) errors.outlet = MESSAGES.outletRequired;
    if (!fields.originalUrl) errors.originalUrl = MESSAGES.originalUrlRequired;
  }
  if (fields.coverImage && !fields.coverAlt.trim()) errors.coverAlt = MESSAGES.coverAltRequired;
  return errors;
}

/** The time of a publication: now when absent (POST /api/admin/posts/:id/publish `{ at? }`). */
export const PublishSchema = z.strictObject(
  {
    at: z.iso
      .datetime({
        offset: true,
        error: "Give the time as an ISO date and time with its zone, such as 2026-12-01T09:00:00Z",
      })
      .optional(),
  },
  unknownKeys,
);

/** The optional body of a restore: the revision the editor showed, to refuse a restore over newer work. */
export const RestoreSchema = z.strictObject(
  { revision: z.int(MESSAGES.revision).min(1, MESSAGES.revision).optional() },
  unknownKeys,
);
