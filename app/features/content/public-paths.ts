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
const generatedFiles = ["/investor-deck-pdf", "/robots.txt"];

/**
 * What the content studio publishes (issue 24): rendered by the server from the database, kept in
 * memory until the published posts change (server/published-pages.ts), never prerendered.
 */
export const PUBLISHED_PATHS = ["/blog", "/rss.xml", "/sitemap.xml"] as const;

/** Is `path` one of the pages the server renders from the published posts? */
export function isPublishedPath(path: string): boolean {
  return (
    (PUBLISHED_PATHS as readonly string[]).includes(path) ||
    /^\/blog\/(?:[a-z0-9]+(?:-[a-z0-9]+)*|page\/[1-9]\d{0,4})$/.test(path)
  );
}

/**
 * Slugs of the articles in content/blog, the files imported as posts on first start (the parser
 * checks that each frontmatter slug matches its file name). Drafts are left out. Their addresses do
 * not change with the import: the page measurements and tests still visit them.
 */
export function listBlogSlugs(contentDir = join(process.cwd(), "content", "blog")): string[] {
  return readdirSync(contentDir)
    .filter((file) => file.endsWith(".md"))
    .map((file) => parseArticle(`content/blog/${file}`, readFileSync(join(contentDir, file), "utf8")))
    .filter((article) => !article.draft)
    .map((article) => article.slug)
    .sort();
}

/** Every path the build prerenders: the public pages but the blog, and the generated files. */
export function listPublicPaths(): string[] {
  return [...staticPublicPaths.filter((path) => !isPublishedPath(path)), ...generatedFiles];
}
