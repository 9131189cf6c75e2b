import { estimateReadTime, WORDS_PER_MINUTE } from "../blog-parser.ts";
import type { BlogCategory } from "../content-rules.ts";
import type { PostImage } from "../posts/post-markdown.ts";

// What readers see of the studio's posts (issue 24): the shapes the blog list, an article's page, the
// feed and the sitemap render, made from the stored posts. Shared by the server and the pages (no
// server imports).

/** A cover image of the media library, or a public file (an imported press mark under /press/). */
export type PublicCover =
  | { kind: "media"; image: PostImage; alt: string }
  | { kind: "file"; src: string; alt: string };

export type PublicArticle = {
  slug: string;
  title: string;
  excerpt: string;
  /** The day readers see (Europe/London), YYYY-MM-DD. */
  date: string;
  /** '28 November 2024'. */
  displayDate: string;
  /** When it was first published (UTC ISO): the feed's pubDate. */
  publishedAt: string;
  /** When it last changed (UTC ISO): the feed's and sitemap's lastmod, JSON-LD's dateModified. */
  modifiedAt: string;
  readTime: number;
  category: BlogCategory;
  author: string;
  tags: string[];
  cover: PublicCover | null;
  seoTitle: string;
  seoDescription: string;
};

export type PublicPressItem = {
  slug: string;
  title: string;
  excerpt: string;
  date: string;
  displayDate: string;
  publication: string;
  externalLink: string;
  isFeatured: boolean;
  cover: PublicCover | null;
  note: string;
};

/** An article's page: the article and its body as HTML (post-markdown.ts, raw HTML escaped). */
export type PublicArticlePage = PublicArticle & { html: string; wordCount: number };

const londonDay = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/London",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The calendar day in London of an instant (UTC ISO), YYYY-MM-DD: the day a reader there saw it appear. */
export function londonDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso.slice(0, 10) : londonDay.format(date);
}

/** Average characters per word (with its space) in the articles' English: 6. */
const CHARACTERS_PER_WORD = 6;

/**
 * Minutes to read: the author's own figure, else estimated from the body's length (the list has no
 * body to count words in; the article page uses the same estimate so the two always agree).
 */
export function readTimeOf(stated: number | null, bodyLength: number): number {
  if (stated !== null) return stated;
  return estimateReadTime(Math.ceil(bodyLength / CHARACTERS_PER_WORD));
}

export { WORDS_PER_MINUTE };
