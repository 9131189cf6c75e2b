// Builds robots.txt: crawl the public site, keep out of the back office and the JSON API.

/** Path prefixes no crawler needs: admin screens and the /api resource routes. */
export const DISALLOWED_PATHS = ["/admin", "/api"] as const;

export function buildRobotsTxt(sitemapUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${sitemapUrl}`,
    "",
  ].join("\n");
}
