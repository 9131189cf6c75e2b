import { postsServices } from "#app/features/content/posts/posts-context.server.ts";
import { buildRssFeed } from "#app/features/content/rss.ts";
import { absoluteUrl } from "#app/lib/site/public-url.ts";
import { site } from "#app/lib/site/site.ts";
import type { Route } from "./+types/rss";

// The articles published in the content studio at this moment (issue 24); the server keeps the feed
// until they change. Readers and caches revalidate it on every poll (an ETag, so an unchanged feed
// costs a 304): a post scheduled for 9:00 is in the feed at 9:00, not an hour later.
const RSS_CACHE_CONTROL = "public, max-age=0, must-revalidate";
/** The newest articles a feed carries: readers poll it for what is new, not the archive. */
const RSS_ITEMS = 50;

export async function loader({ context }: Route.LoaderArgs) {
  const { site: published } = await postsServices(context);
  const { articles } = await published.listing();
  const xml = buildRssFeed({
    title: `${site.productName} Blog`,
    link: absoluteUrl("/blog"),
    description: `Articles from ${site.company.legalName} on contract management for construction businesses: JCT and NEC contracts, variations, payment, notices and retention.`,
    selfUrl: absoluteUrl("/rss.xml"),
    language: "en-gb",
    items: articles.slice(0, RSS_ITEMS).map((article) => ({
      title: article.title,
      link: absoluteUrl(`/blog/${article.slug}`),
      publishedAt: article.publishedAt,
      description: article.excerpt,
      category: article.category,
    })),
  });
  return new Response(xml, {
    headers: {
      "Content-Type": "application/rss+xml; charset=utf-8",
      "Cache-Control": RSS_CACHE_CONTROL,
    },
  });
}
