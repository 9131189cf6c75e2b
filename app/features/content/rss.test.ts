import { describe, expect, test } from "vitest";
import { buildRssFeed, escapeXml, textAsHtml, toRfc822 } from "./rss.ts";

describe("escapeXml", () => {
  test("escapes the five XML special characters", () => {
    expect(escapeXml(`Tom & Jerry's <"tag">`)).toBe("Tom &amp; Jerry&apos;s &lt;&quot;tag&quot;&gt;");
  });

  test("removes control characters XML cannot carry", () => {
    expect(escapeXml("a\u0000b\u0008c\td\ne")).toBe("abc\td\ne");
  });
});

test("toRfc822 formats an instant (or a bare day, as its midnight) in GMT", () => {
  expect(toRfc822("2024-11-28T09:41:07.123Z")).toBe("Thu, 28 Nov 2024 09:41:07 GMT");
  expect(toRfc822("2024-11-28")).toBe("Thu, 28 Nov 2024 00:00:00 GMT");
  expect(() => toRfc822("not-a-date")).toThrow(/Invalid date/);
});

test("textAsHtml escapes what HTML would read as markup", () => {
  expect(textAsHtml(`<img src=x onerror="a('1')"> & co`)).toBe(
    "&lt;img src=x onerror=&quot;a(&#39;1&#39;)&quot;&gt; &amp; co",
  );
});

/** One element's content after the XML parse (entities decoded once), as a reader gets it. */
function xmlText(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, "g"))].map((match) =>
    (match[1] ?? "").replace(/&(lt|gt|quot|apos|amp);/g, (_, entity: string) =>
      entity === "lt" ? "<" : entity === "gt" ? ">" : entity === "quot" ? '"' : entity === "apos" ? "'" : "&",
    ),
  );
}

/** HTML's character references decoded: what an HTML renderer shows of text with no element in it. */
const htmlShown = (html: string) =>
  html.replace(/&(lt|gt|quot|amp|#39);/g, (_, entity: string) =>
    entity === "lt" ? "<" : entity === "gt" ? ">" : entity === "quot" ? '"' : entity === "#39" ? "'" : "&",
  );

describe("an item as a reader reads it", () => {
  const title = `Fees & "extras" <img src=x onerror=alert(1)>`;
  const summary = "What <b>counts</b>: <img src=x onerror=alert(2)> & <script>alert(3)</script> it's";
  const xml = buildRssFeed({
    title: "Blog",
    link: "https://example.com/blog",
    description: "Articles",
    selfUrl: "https://example.com/rss.xml",
    items: [
      {
        title,
        link: "https://example.com/blog/fees",
        publishedAt: "2025-03-04T14:05:09.500Z",
        description: summary,
      },
    ],
  });

  test("the description is HTML that shows the summary as text, with no element", () => {
    const [html = ""] = xmlText(xml, "description").slice(1);
    expect(html).not.toMatch(/[<>]/);
    expect(htmlShown(html)).toBe(summary);
  });

  test("the title is plain text, escaped once", () => {
    expect(xmlText(xml, "title")[1]).toBe(title);
  });

  test("pubDate and lastBuildDate are the publish instant, not the day's midnight", () => {
    expect(xml).toContain("<pubDate>Tue, 04 Mar 2025 14:05:09 GMT</pubDate>");
    expect(xml).toContain("<lastBuildDate>Tue, 04 Mar 2025 14:05:09 GMT</lastBuildDate>");
  });
});

describe("buildRssFeed", () => {
  const xml = buildRssFeed({
    title: "Blog & News",
    link: "https://example.com/blog",
    description: "Contracts <explained>",
    selfUrl: "https://example.com/rss.xml",
    items: [
      {
        title: "Older",
        link: "https://example.com/blog/older",
        publishedAt: "2024-11-15",
        description: "First",
        category: "Best Practices",
      },
      {
        title: "Variations & <notices>",
        link: "https://example.com/blog/newer?a=1&b=2",
        publishedAt: "2024-11-28T10:30:00.000Z",
        description: 'It\'s "quoted"',
      },
    ],
  });

  test("is an RSS 2.0 document with an atom self link", () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"')).toBe(true);
    expect(xml).toContain('xmlns:atom="http://www.w3.org/2005/Atom"');
    expect(xml).toContain(
      '<atom:link href="https://example.com/rss.xml" rel="self" type="application/rss+xml"/>',
    );
    expect(xml).toContain("<title>Blog &amp; News</title>");
    expect(xml).toContain("<description>Contracts &lt;explained&gt;</description>");
  });

  test("lists every item with link, guid, pubDate, description and category", () => {
    expect(xml.match(/<item>/g)).toHaveLength(2);
    expect(xml).toContain("<title>Variations &amp; &lt;notices&gt;</title>");
    expect(xml).toContain("<link>https://example.com/blog/newer?a=1&amp;b=2</link>");
    expect(xml).toContain('<guid isPermaLink="true">https://example.com/blog/older</guid>');
    expect(xml).toContain("<pubDate>Fri, 15 Nov 2024 00:00:00 GMT</pubDate>");
    expect(xml).toContain("<description>It&amp;#39;s &amp;quot;quoted&amp;quot;</description>");
    expect(xml).toContain("<category>Best Practices</category>");
    expect(xml.match(/<category>/g)).toHaveLength(1);
  });

  test("takes lastBuildDate from the newest item", () => {
    expect(xml).toContain("<lastBuildDate>Thu, 28 Nov 2024 10:30:00 GMT</lastBuildDate>");
  });

  test("contains no raw ampersand or angle bracket inside text", () => {
    const text = xml.replace(/<[^>]+>/g, "");
    expect(text).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
    expect(text).not.toMatch(/[<>]/);
  });
});
