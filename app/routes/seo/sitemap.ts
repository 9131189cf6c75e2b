import { postsServices } from "#app/features/content/posts/posts-context.server.ts";
import { staticPublicPaths } from "#app/features/content/public-paths.ts";
import { buildSitemap, type SitemapEntry } from "#app/features/content/sitemap.ts";
import { absoluteUrl } from "#app/lib/site/public-url.ts";
import type { Route } from "./+types/sitemap";

// The articles published in the content studio at this moment (issue 24); the server keeps the
// sitemap until they change. Revalidated on every fetch (an ETag, so an unchanged one costs a 304),
// like the pages it lists: a cache never hides a new or removed article.
const SITEMAP_CACHE_CONTROL = "public, max-age=0, must-revalidate";

export async function loader({ context }: Route.LoaderArgs) {
  const { site: published } = await postsServices(context);
  const { articles, newestDate } = await published.listing();
  const entries: SitemapEntry[] = [
    ...staticPublicPaths.map((path) => ({
      loc: absoluteUrl(path),
      lastmod: path === "/blog" ? (newestDate ?? undefined) : undefined,
    })),
    ...[...articles]
      .sort((a, b) => a.slug.localeCompare(b.slug))
      .map((article) => ({
        loc: absoluteUrl(`/blog/${article.slug}`),
        lastmod: article.modifiedAt.slice(0, 10),
      })),
  ];
  return new Response(buildSitemap(entries), {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": SITEMAP_CACHE_CONTROL,
    },
  });
}
