import { BLOG_CATEGORIES, type BlogCategory, PRESS_CATEGORY } from "../content-rules.ts";
import type { PostFields, PostKind } from "../posts/post-fields.ts";

// The editor's form (issue 24): one value per box, as text, the same with and without JavaScript.
// The page's action reads these from the posted form and hands them to the posts schema
// (post-schema.ts), which has the final word; the browser keeps them as its editing state.

/** The fields the editor shows, in its order. */
export const EDITOR_FIELDS = [
  "kind",
  "title",
  "slug",
  "body",
  "excerpt",
  "tags",
  "category",
  "author",
  "coverImage",
  "coverAlt",
  "seoTitle",
  "seoDescription",
  "outlet",
  "originalUrl",
  "featured",
  "note",
] as const;
export type EditorField = (typeof EDITOR_FIELDS)[number];

/** The editor's boxes. `featured` is "on" when ticked, "" otherwise, as a checkbox posts it. */
export type EditorValues = Record<EditorField, string>;

/** The categories an article may have (press items are always Press Coverage). */
export const ARTICLE_CATEGORIES = BLOG_CATEGORIES.filter(
  (category): category is Exclude<BlogCategory, typeof PRESS_CATEGORY> => category !== PRESS_CATEGORY,
);

export function valuesOf(fields: PostFields): EditorValues {
  return {
    kind: fields.kind,
    title: fields.title,
    slug: fields.slug,
    body: fields.body,
    excerpt: fields.excerpt,
    tags: fields.tags.join(", "),
    category: fields.category,
    author: fields.author,
    coverImage: fields.coverImage ?? "",
    coverAlt: fields.coverAlt,
    seoTitle: fields.seoTitle,
    seoDescription: fields.seoDescription,
    outlet: fields.outlet,
    originalUrl: fields.originalUrl ?? "",
    featured: fields.featured ? "on" : "",
    note: fields.note,
  };
}

export const EMPTY_VALUES: EditorValues & { category: BlogCategory } = {
  kind: "article",
  title: "",
  slug: "",
  body: "",
  excerpt: "",
  tags: "",
  category: "Industry Insights",
  author: "",
  coverImage: "",
  coverAlt: "",
  seoTitle: "",
  seoDescription: "",
  outlet: "",
  originalUrl: "",
  featured: "",
  note: "",
};

/** The name under which the form without JavaScript posts its choice of cover from the library. */
export const COVER_PICK_FIELD = "coverPick";

/**
 * The editor's values from a posted form. A box missing from the form reads as empty; a choice of
 * cover made without JavaScript (COVER_PICK_FIELD) wins over the script's hidden field.
 */
export function readEditorValues(form: URLSearchParams): EditorValues {
  const values = Object.fromEntries(
    EDITOR_FIELDS.map((field) => [field, form.get(field) ?? ""]),
  ) as EditorValues;
  const pick = form.get(COVER_PICK_FIELD);
  if (pick !== null) values.coverImage = pick === "none" ? "" : pick;
  values.featured = values.featured === "" || values.featured === "false" ? "" : "on";
  return values;
}

/** The values as the posts schema takes them (everything but the author's account). */
export function schemaInput(values: EditorValues): Record<EditorField, unknown> {
  return { ...values, featured: values.featured === "on" ? "true" : "false" };
}

export function sameValues(a: EditorValues, b: EditorValues): boolean {
  return EDITOR_FIELDS.every((field) => a[field] === b[field]);
}

export const isKind = (value: string): value is PostKind => value === "article" || value === "press";

/**
 * The values read as a post's fields, leniently (the browser's comparisons: the conflict panel's
 * differences); the server parses them with the schema instead.
 */
export function fieldsOfValues(values: EditorValues): PostFields {
  const category = (BLOG_CATEGORIES as readonly string[]).includes(values.category)
    ? (values.category as BlogCategory)
    : (EMPTY_VALUES.category as BlogCategory);
  return {
    kind: isKind(values.kind) ? values.kind : "article",
    slug: values.slug,
    title: values.title,
    excerpt: values.excerpt,
    body: values.body,
    tags: values.tags
      .split(",")
      .map((tag) => tag.trim())
      .filter(Boolean),
    category,
    author: values.author,
    authorUserId: null,
    coverImage: values.coverImage || null,
    coverAlt: values.coverAlt,
    seoTitle: values.seoTitle,
    seoDescription: values.seoDescription,
    outlet: values.outlet,
    originalUrl: values.originalUrl || null,
    featured: values.featured === "on",
    note: values.note,
    readTime: null,
  };
}
