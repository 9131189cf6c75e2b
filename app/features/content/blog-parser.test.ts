import { describe, expect, test } from "vitest";
import {
  byNewestFirst,
  ContentError,
  countWords,
  formatDisplayDate,
  parseArticle,
  parsePressItem,
  renderMarkdown,
} from "./blog-parser.ts";

function file(frontmatter: string, body = "Intro.\n\n## A heading\n\nText.") {
  return `---\n${frontmatter.trim()}\n---\n${body}`;
}

const validFrontmatter = `
title: Test article
excerpt: A short summary.
date: 2024-11-28
readTime: 3
category: Best Practices
slug: test-article
`;

describe("parseArticle", () => {
  test("parses valid frontmatter and renders the body", () => {
    const article = parseArticle("content/blog/test-article.md", file(validFrontmatter));
    expect(article).toMatchObject({
      title: "Test article",
      date: "2024-11-28",
      displayDate: "28 November 2024",
      readTime: 3,
      category: "Best Practices",
      slug: "test-article",
      draft: false,
    });
    expect(article.html).toContain("<h2>A heading</h2>");
  });

  test("keeps the draft flag", () => {
    const article = parseArticle("test-article.md", file(`${validFrontmatter}\ndraft: true`));
    expect(article.draft).toBe(true);
  });

  test("rejects a slug that differs from the file name, naming the file", () => {
    expect(() => parseArticle("content/blog/other-name.md", file(validFrontmatter))).toThrow(
      /content\/blog\/other-name\.md.*slug 'test-article' must equal the file name 'other-name'/,
    );
  });

  test.each([
    ["an unknown category", validFrontmatter.replace("Best Practices", "Gossip")],
    ["a missing title", validFrontmatter.replace("title: Test article", "")],
    ["a badly formatted date", validFrontmatter.replace("2024-11-28", "28/11/2024")],
    ["a fractional read time", validFrontmatter.replace("readTime: 3", "readTime: 3.5")],
    ["an unknown field", `${validFrontmatter}\nauthor: Someone`],
  ])("rejects %s with an error naming the file", (_label, frontmatter) => {
    expect(() => parseArticle("content/blog/test-article.md", file(frontmatter))).toThrow(ContentError);
    expect(() => parseArticle("content/blog/test-article.md", file(frontmatter))).toThrow(
      /Invalid frontmatter in content\/blog\/test-article\.md/,
    );
  });

  test("rejects a file without frontmatter or body", () => {
    expect(() => parseArticle("x.md", "# Just markdown")).toThrow(/x\.md: missing YAML frontmatter/);
    expect(() => parseArticle("test-article.md", file(validFrontmatter, "  \n"))).toThrow(/no body/);
  });

  test("rejects invalid YAML", () => {
    expect(() => parseArticle("test-article.md", file("title: [unclosed"))).toThrow(/not valid YAML/);
  });
});

describe("parsePressItem", () => {
  const press = `
title: Coverage
excerpt: What they said.
date: 2025-05-15
readTime: 4
category: Press Coverage
slug: coverage
publication: Trade Weekly
externalLink: https://example.com/story
image: /press/trade-weekly.svg
isFeatured: true
note: Featured on Page 12
`;

  test("parses a press item", () => {
    expect(parsePressItem("content/press/coverage.md", file(press, ""))).toMatchObject({
      publication: "Trade Weekly",
      isFeatured: true,
      note: "Featured on Page 12",
      displayDate: "15 May 2025",
    });
  });

  test("rejects a plain http link, another category and an image outside /press/", () => {
    for (const bad of [
      press.replace("https://", "http://"),
      press.replace("category: Press Coverage", "category: Technology"),
      press.replace("/press/trade-weekly.svg", "https://cdn.example.com/logo.svg"),
    ]) {
      expect(() => parsePressItem("content/press/coverage.md", file(bad, ""))).toThrow(ContentError);
    }
  });
});

describe("renderMarkdown", () => {
  test("renders headings, lists and blockquotes", () => {
    const html = renderMarkdown("## Title\n\n- one\n- two\n\n1. first\n\n> quoted");
    expect(html).toContain("<h2>Title</h2>");
    expect(html).toContain("<ul>\n<li>one</li>");
    expect(html).toContain("<ol>\n<li>first</li>");
    expect(html).toContain("<blockquote>");
  });

  test("escapes raw HTML instead of passing it through", () => {
    const html = renderMarkdown(
      '<script>alert("x")</script>\n\nText with <img src=x onerror=alert(1)> inline.',
    );
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;");
  });

  test("drops javascript: links but keeps safe ones", () => {
    const html = renderMarkdown("[bad](javascript:alert(1)) and [good](/demo) and [mail](mailto:a@b.co)");
    expect(html).not.toContain("javascript:");
    expect(html).toContain('<a href="/demo">good</a>');
    expect(html).toContain('<a href="mailto:a@b.co">mail</a>');
  });
});

test("formatDisplayDate uses the British long form regardless of time zone", () => {
  expect(formatDisplayDate("2024-11-28")).toBe("28 November 2024");
  expect(formatDisplayDate("2025-01-01")).toBe("1 January 2025");
});

test("countWords ignores markdown syntax and link targets", () => {
  expect(countWords("## Heading\n\n- **bold** [link text](/somewhere)")).toBe(4);
});

test("byNewestFirst sorts by date descending", () => {
  const items = [
    { date: "2024-11-15", slug: "a" },
    { date: "2024-11-28", slug: "b" },
    { date: "2024-11-20", slug: "c" },
  ];
  expect(items.sort(byNewestFirst).map((item) => item.slug)).toEqual(["b", "c", "a"]);
});
