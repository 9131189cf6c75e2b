// A small RSS 2.0 builder: pure, so the feed's shape and escaping are unit-tested without a server.

export type RssItem = {
  title: string;
  /** Absolute URL of the item; also its permanent guid. */
  link: string;
  /** When it was first published: a UTC ISO instant (or a YYYY-MM-DD day, read as its midnight UTC). */
  publishedAt: string;
  /** Plain text (the post's summary): shown as text by every reader, never read as markup. */
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

const htmlEscapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Text as HTML that shows it: RSS 2.0 readers decode an item's `<description>` as HTML (after the
 * XML parse), so an author's `<img src=x onerror=…>` must reach them as `&lt;img…`, i.e. escaped for
 * HTML and then, by `element`, for XML.
 */
export function textAsHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => htmlEscapes[char] ?? char);
}

/**
 * An instant as RFC 822 (RSS 2.0): '2024-11-28T09:41:07.000Z' → 'Thu, 28 Nov 2024 09:41:07 GMT'.
 * A bare day ('2024-11-28') is its midnight UTC.
 */
export function toRfc822(iso: string): string {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(date.getTime())) throw new Error(`Invalid date for RSS: ${iso}`);
  return date.toUTCString();
}

function element(name: string, value: string): string {
  return `<${name}>${escapeXml(value)}</${name}>`;
}

/**
 * The feed document. `lastBuildDate` is the newest item's publication, so the output is
 * reproducible. Titles are plain text (XML-escaped once); descriptions are HTML (the text escaped
 * for HTML, then for XML), as readers decode them.
 */
export function buildRssFeed(channel: RssChannel): string {
  const newest = channel.items
    .map((item) => item.publishedAt)
    .sort((a, b) => Date.parse(a) - Date.parse(b))
    .at(-1);
  const items = channel.items.map((item) =>
    [
      "    <item>",
      `      ${element("title", item.title)}`,
      `      ${element("link", item.link)}`,
      `      <guid isPermaLink="true">${escapeXml(item.link)}</guid>`,
      `      ${element("pubDate", toRfc822(item.publishedAt))}`,
      `      ${element("description", textAsHtml(item.description))}`,
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
