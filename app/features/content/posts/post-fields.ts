import type { BlogCategory } from "../content-rules.ts";

// The shape of a content-studio post (issue 24), shared by the server and the browser's editor: no
// imports beyond the content rules, so the editor bundle stays small.

export const POST_KINDS = ["article", "press"] as const;
export type PostKind = (typeof POST_KINDS)[number];

/**
 * What staff chose. Readers see a 'scheduled' post whose time has come as published: the status a
 * post has *for readers at a time* is post-status.ts's effectiveStatus, and that is what every read
 * of the store answers.
 */
export const POST_STATUSES = ["draft", "scheduled", "published", "unpublished"] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** The editable fields: what a save changes and what a revision keeps. */
export type PostFields = {
  kind: PostKind;
  slug: string;
  title: string;
  /** The summary shown in lists, feeds and search results. */
  excerpt: string;
  /** Markdown; line breaks are "\n". Empty for a press item (it links out). */
  body: string;
  tags: string[];
  category: BlogCategory;
  /** The author's display name as readers see it; empty: the company. */
  author: string;
  /** The staff account of the author, when there is one. */
  authorUserId: number | null;
  /** A media library image's id ("42"), or a public path (/press/x.svg) of an imported press logo. */
  coverImage: string | null;
  coverAlt: string;
  /** Empty: the title. */
  seoTitle: string;
  /** Empty: the excerpt. */
  seoDescription: string;
  /** Press: the publication. */
  outlet: string;
  /** Press: the article's https address. */
  originalUrl: string | null;
  /** Press: shown first. */
  featured: boolean;
  /** Press: a short line such as "Featured on Page 12". */
  note: string;
  /** Minutes to read, when stated; null: estimated from the body. */
  readTime: number | null;
};

export type PostField = keyof PostFields;

/** Every editable field, in the order an editor shows them (and a diff lists them). */
export const POST_FIELDS = [
  "kind",
  "title",
  "slug",
  "excerpt",
  "body",
  "tags",
  "category",
  "author",
  "authorUserId",
  "coverImage",
  "coverAlt",
  "seoTitle",
  "seoDescription",
  "outlet",
  "originalUrl",
  "featured",
  "note",
  "readTime",
] as const satisfies readonly PostField[];

/** The fields' names as people read them (messages, the revisions' differences). */
export const POST_FIELD_LABELS: Readonly<Record<PostField, string>> = {
  kind: "Post type",
  title: "Title",
  slug: "Address",
  excerpt: "Summary",
  body: "Text",
  tags: "Tags",
  category: "Category",
  author: "Author",
  authorUserId: "Author's account",
  coverImage: "Cover image",
  coverAlt: "Cover image description",
  seoTitle: "Search title",
  seoDescription: "Search description",
  outlet: "Publication",
  originalUrl: "Original article",
  featured: "Featured",
  note: "Note",
  readTime: "Reading time",
};

/** The limits of each field (characters unless said otherwise). */
export const POST_LIMITS = {
  title: 200,
  slug: 100,
  excerpt: 500,
  body: 100_000,
  /** Tags per post. */
  tags: 10,
  tag: 40,
  author: 100,
  coverImage: 200,
  coverAlt: 200,
  seoTitle: 70,
  seoDescription: 160,
  outlet: 100,
  originalUrl: 2000,
  note: 100,
  /** Minutes. */
  readTime: 60,
} as const;

/** The category a new article gets when none is chosen. */
export const DEFAULT_ARTICLE_CATEGORY: BlogCategory = "Industry Insights";
