import { listArticles } from "#app/features/content/blog.server.ts";
import { listBlogSlugs, staticPublicPaths } from "#app/features/content/public-paths.ts";
import { buildSitemap, type SitemapEntry } from "#app/features/content/sitemap.ts";
import { absoluteUrl } from "#app/lib/site/public-url.ts";

// Crawlers fetch the sitemap rarely; an hour is plenty. (The build prerenders /sitemap.xml as a
// static file, which server.ts serves with its own headers.)
const SITEMAP_CACHE_CONTROL = "public, max-age=3600";

export function loader() {
  // NOTE: article paths come from the same list the build prerenders (file names under content/blog),
  // so the sitemap never names a page that was not built; the dates come from the frontmatter.
  const articleDates = new Map(listArticles().map((article) => [article.slug, article.date]));
  const newestArticle = [...articleDates.values()].sort().at(-1);
  const entries: SitemapEntry[] = [
    ...staticPublicPaths.map((path) => ({
      loc: absoluteUrl(path),
      lastmod: path === "/blog" ? newestArticle : undefined,
    })),
    ...listBlogSlugs().map((slug) => ({
      loc: absoluteUrl(`/blog/${slug}`),
      lastmod: articleDates.get(slug),
    })),
  ];
  return new Response(buildSitemap(entries), {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": SITEMAP_CACHE_CONTROL,
    },
  });
}
