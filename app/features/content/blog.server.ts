import {
  type Article,
  type ArticleSource,
  type ArticleSummary,
  byNewestFirst,
  type PressItem,
  parseArticleSource,
  parsePressItem,
  toSummary,
} from "./blog-parser.ts";

// Content is files: Vite inlines every markdown file at build time, and each is parsed and validated
// once when this module loads, so a bad frontmatter field fails the build (and the unit tests) with the
// file's name instead of surfacing as a broken page.
const articleFiles = import.meta.glob<string>("/content/blog/*.md", {
  query: "?raw",
  import: "default",
  eager: true,
});
const pressFiles = import.meta.glob<string>("/content/press/*.md", {
  query: "?raw",
  import: "default",
  eager: true,
});

function fileLabel(path: string): string {
  return path.replace(/^\//, "");
}

const articleSources: ArticleSource[] = Object.entries(articleFiles)
  .map(([path, raw]) => parseArticleSource(fileLabel(path), raw))
  .sort(byNewestFirst);

const allArticles: Article[] = articleSources.map(({ markdown: _markdown, ...article }) => article);

const allPressItems: PressItem[] = Object.entries(pressFiles)
  .map(([path, raw]) => parsePressItem(fileLabel(path), raw))
  .sort(byNewestFirst);

/** Published articles, newest first, without their bodies. Drafts are hidden. */
export function listArticles(): ArticleSummary[] {
  return allArticles.filter((article) => !article.draft).map(toSummary);
}

/** One published article with its rendered HTML, or undefined for an unknown slug or a draft. */
export function getArticle(slug: string): Article | undefined {
  return allArticles.find((article) => article.slug === slug && !article.draft);
}

/** Published press coverage, newest first. */
export function listPressItems(): PressItem[] {
  return allPressItems.filter((item) => !item.draft);
}

/**
 * Every file of content/, drafts included, with the articles' markdown: the content studio imports
 * them into the database on first start (features/content/posts/post-import.server.ts).
 */
export function contentFilesForImport(): { articles: ArticleSource[]; pressItems: PressItem[] } {
  return { articles: articleSources, pressItems: allPressItems };
}

export type { Article, ArticleSource, ArticleSummary, PressItem };
