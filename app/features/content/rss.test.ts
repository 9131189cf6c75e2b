import { describe, expect, test } from "vitest";
import { buildRssFeed, escapeXml, toRfc822 } from "./rss.ts";

describe("escapeXml", () => {
  test("escapes the five XML special characters", () => {
    expect(escapeXml(`Tom & Jerry's <"tag">`)).toBe("Tom &amp; Jerry&apos;s &lt;&quot;tag&quot;&gt;");
  });

  test("removes control characters XML cannot carry", () => {
    expect(escapeXml("a\u0000b\u0008c\td\ne")).toBe("abc\td\ne");
  });
});

test("toRfc822 formats a calendar date in GMT", () => {
  expect(toRfc822("2024-11-28")).toBe("Thu, 28 Nov 2024 00:00:00 GMT");
  expect(() => toRfc822("not-a-date")).toThrow(/Invalid date/);
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
        date: "2024-11-15",
        description: "First",
        category: "Best Practices",
      },
      {
        title: "Variations & <notices>",
        link: "https://example.com/blog/newer?a=1&b=2",
        date: "2024-11-28",
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
    expect(xml).toContain("<description>It&apos;s &quot;quoted&quot;</description>");
    expect(xml).toContain("<category>Best Practices</category>");
    expect(xml.match(/<category>/g)).toHaveLength(1);
  });

  test("takes lastBuildDate from the newest item", () => {
    expect(xml).toContain("<lastBuildDate>Thu, 28 Nov 2024 00:00:00 GMT</lastBuildDate>");
  });

  test("contains no raw ampersand or angle bracket inside text", () => {
    const text = xml.replace(/<[^>]+>/g, "");
    expect(text).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
    expect(text).not.toMatch(/[<>]/);
  });
});
