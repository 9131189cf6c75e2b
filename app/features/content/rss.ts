// A small RSS 2.0 builder: pure, so the feed's shape and escaping are unit-tested without a server.

export type RssItem = {
  title: string;
  /** Absolute URL of the item; also its permanent guid. */
  link: string;
  /** Publication date as YYYY-MM-DD. */
  date: string;
  description: string;
  category?: string;
};

export type RssChannel = {
  title: string;
  /** Absolute URL of the HTML page the feed mirrors. */
  link: string;
  description: string;
  /** Absolute URL of the feed itself (atom:link rel="self"). */
  selfUrl: string;
  language?: string;
  items: RssItem[];
};

const xmlEscapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Escapes text for XML element content and attribute values, dropping characters XML 1.0 forbids. */
export function escapeXml(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/[&<>"']/g, (char) => xmlEscapes[char] ?? char)
  );
}

/** '2024-11-28' → 'Thu, 28 Nov 2024 00:00:00 GMT' (RFC 822 date as RSS 2.0 requires). */
export function toRfc822(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) throw new Error(`Invalid date for RSS: ${isoDate}`);
  return date.toUTCString();
}

function element(name: string, value: string): string {
  return `<${name}>${escapeXml(value)}</${name}>`;
}

/** The feed document. `lastBuildDate` is the newest item's date, so the output is reproducible. */
export function buildRssFeed(channel: RssChannel): string {
  const newest = channel.items
    .map((item) => item.date)
    .sort()
    .at(-1);
  const items = channel.items.map((item) =>
    [
      "    <item>",
      `      ${element("title", item.title)}`,
      `      ${element("link", item.link)}`,
      `      <guid isPermaLink="true">${escapeXml(item.link)}</guid>`,
      `      ${element("pubDate", toRfc822(item.date))}`,
      `      ${element("description", item.description)}`,
      item.category ? `      ${element("category", item.category)}` : "",
      "    </item>",
    ]
      .filter(Boolean)
      .join("\n"),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    "  <channel>",
    `    ${element("title", channel.title)}`,
    `    ${element("link", channel.link)}`,
    `    ${element("description", channel.description)}`,
    `    ${element("language", channel.language ?? "en-gb")}`,
    `    <atom:link href="${escapeXml(channel.selfUrl)}" rel="self" type="application/rss+xml"/>`,
    newest ? `    ${element("lastBuildDate", toRfc822(newest))}` : "",
    ...items,
    "  </channel>",
    "</rss>",
  ]
    .filter(Boolean)
    .join("\n")
    .concat("\n");
}
