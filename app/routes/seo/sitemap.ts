import { postsServices } from "#app/features/content/posts/posts-context.server.ts";
import { staticPublicPaths } from "#app/features/content/public-paths.ts";
import { buildSitemap, type SitemapEntry, w3cDatetime } from "#app/features/content/sitemap.ts";
import { absoluteUrl } from "#app/lib/site/public-url.ts";
import type { Route } from "./+types/sitemap";

// The articles published in the content studio at this moment (issue 24); the server keeps the
// sitemap until they change. Revalidated on every fetch (an ETag, so an unchanged one costs a 304),
// like the pages it lists: a cache never hides a new or removed article.
const SITEMAP_CACHE_CONTROL = "public, max-age=0, must-revalidate";

export async function loader({ context }: Route.LoaderArgs) {
  const { site: published } = await postsServices(context);
  const { articles } = await published.listing();
  // The list changes when an article appears or its words change: the latest of those instants.
  const blogChanged = articles
    .flatMap((article) => [article.publishedAt, article.modifiedAt])
    .reduce<string | undefined>(
      (latest, at) => (!latest || Date.parse(at) > Date.parse(latest) ? at : latest),
      undefined,
    );
  const entries: SitemapEntry[] = [
    ...staticPublicPaths.map((path) => ({
      loc: absoluteUrl(path),
      lastmod: path === "/blog" && blogChanged ? w3cDatetime(blogChanged) : undefined,
    })),
    ...[...articles]
      .sort((a, b) => a.slug.localeCompare(b.slug))
      .map((article) => ({
        loc: absoluteUrl(`/blog/${article.slug}`),
        lastmod: w3cDatetime(article.modifiedAt),
      })),
  ];
  return new Response(buildSitemap(entries), {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": SITEMAP_CACHE_CONTROL,
    },
  });
}
