import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArticle } from "./blog-parser.ts";

// NOTE: imported by react-router.config.ts, which runs outside Vite: plain Node APIs only.

/** Public pages that have no parameters, in the order the sitemap lists them. */
export const staticPublicPaths = [
  "/",
  "/problem",
  "/solution",
  "/features",
  "/demo",
  "/invest",
  "/investor-deck",
  "/blog",
  "/privacy-policy",
] as const;

/** Files produced at build time next to the pages. */
const generatedFiles = ["/investor-deck-pdf", "/sitemap.xml", "/robots.txt", "/rss.xml"];

/**
 * Slugs of the published articles: the markdown file names under content/blog (the parser checks
 * that each frontmatter slug matches its file name). Drafts are left out, so they are not prerendered.
 */
export function listBlogSlugs(contentDir = join(process.cwd(), "content", "blog")): string[] {
  return readdirSync(contentDir)
    .filter((file) => file.endsWith(".md"))
    .map((file) => parseArticle(`content/blog/${file}`, readFileSync(join(contentDir, file), "utf8")))
    .filter((article) => !article.draft)
    .map((article) => article.slug)
    .sort();
}

/** Every path the build prerenders: public pages, articles, and the generated files. */
export function listPublicPaths(): string[] {
  return [...staticPublicPaths, ...listBlogSlugs().map((slug) => `/blog/${slug}`), ...generatedFiles];
}
