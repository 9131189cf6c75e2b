import { describe, expect, test } from "vitest";
import { buildSitemap, w3cDatetime } from "./sitemap.ts";

describe("buildSitemap", () => {
  test("lists each URL with its lastmod when known", () => {
    const xml = buildSitemap([
      { loc: "https://www.example.co.uk/" },
      { loc: "https://www.example.co.uk/blog/a-post", lastmod: "2024-11-28" },
    ]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).toContain("<url><loc>https://www.example.co.uk/</loc></url>");
    expect(xml).toContain(
      "<url><loc>https://www.example.co.uk/blog/a-post</loc><lastmod>2024-11-28</lastmod></url>",
    );
    expect(xml.trimEnd().endsWith("</urlset>")).toBe(true);
  });

  test("keeps the given order and lists a URL once", () => {
    const xml = buildSitemap([
      { loc: "https://x.test/b" },
      { loc: "https://x.test/a" },
      { loc: "https://x.test/b", lastmod: "2025-01-01" },
    ]);
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);
    expect(locs).toEqual(["https://x.test/b", "https://x.test/a"]);
  });

  test("escapes XML special characters", () => {
    const xml = buildSitemap([{ loc: "https://x.test/search?q=a&b=<c>" }]);
    expect(xml).toContain("<loc>https://x.test/search?q=a&amp;b=&lt;c&gt;</loc>");
  });

  test("is a valid empty urlset without entries", () => {
    expect(buildSitemap([])).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>\n',
    );
  });
});

test("w3cDatetime gives an instant to the second in UTC, and keeps a bare day", () => {
  expect(w3cDatetime("2025-03-04T14:05:09.500Z")).toBe("2025-03-04T14:05:09Z");
  expect(w3cDatetime("2024-11-28")).toBe("2024-11-28");
  expect(() => w3cDatetime("soon")).toThrow(/Invalid date/);
});
