// Builds sitemap.xml (sitemaps.org protocol 0.9) from site paths; the route supplies the paths.

export type SitemapEntry = {
  /** An absolute URL, e.g. `https://www.clausebridge.co.uk/blog`. */
  loc: string;
  /** When the page last changed, as a `YYYY-MM-DD` date or a full W3C datetime. */
  lastmod?: string;
};

const XML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);
}

/**
 * An instant (UTC ISO) as the W3C datetime a lastmod takes, to the second:
 * '2024-11-28T09:41:07.123Z' → '2024-11-28T09:41:07Z'. A bare day is kept as it is.
 */
export function w3cDatetime(iso: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) return iso;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new Error(`Invalid date for the sitemap: ${iso}`);
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The sitemap document; duplicate URLs are listed once, in first-seen order. */
export function buildSitemap(entries: readonly SitemapEntry[]): string {
  const seen = new Set<string>();
  const urls: string[] = [];
  for (const { loc, lastmod } of entries) {
    if (seen.has(loc)) continue;
    seen.add(loc);
    const lastmodTag = lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : "";
    urls.push(`  <url><loc>${escapeXml(loc)}</loc>${lastmodTag}</url>`);
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}
