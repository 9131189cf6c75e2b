import { buildRobotsTxt } from "#app/features/content/robots.ts";
import { absoluteUrl } from "#app/lib/site/public-url.ts";

// Crawlers re-read robots.txt about daily; an hour keeps a change visible soon after a deploy.
// (The build prerenders /robots.txt as a static file, which server.ts serves with its own headers.)
const ROBOTS_CACHE_CONTROL = "public, max-age=3600";

export function loader() {
  return new Response(buildRobotsTxt(absoluteUrl("/sitemap.xml")), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": ROBOTS_CACHE_CONTROL,
    },
  });
}
