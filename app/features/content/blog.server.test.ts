import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { getArticle, listArticles, listPressItems } from "./blog.server.ts";
import { BLOG_CATEGORIES, estimateReadTime, parseArticle } from "./blog-parser.ts";
import { listBlogSlugs } from "./public-paths.ts";

// These tests read the real files under content/: they are the checks a writer's edit must pass.

const knownSlugs = [
  "hidden-costs-poor-contract-management",
  "digital-transformation-contract-management",
  "signs-need-better-contract-management",
];

describe("articles", () => {
  const articles = listArticles();

  test("lists the three known articles, newest first", () => {
    expect(articles.map((article) => article.slug)).toEqual(knownSlugs);
    expect(articles.map((article) => article.date)).toEqual(["2024-11-28", "2024-11-20", "2024-11-15"]);
  });

  test("summaries carry no body", () => {
    for (const article of articles) expect(article).not.toHaveProperty("html");
  });

  test("every file's slug equals its file name, and exactly the published ones are prerendered", () => {
    const dir = join(process.cwd(), "content", "blog");
    const files = readdirSync(dir).filter((name) => name.endsWith(".md"));
    const published: string[] = [];
    for (const name of files) {
      const article = parseArticle(`content/blog/${name}`, readFileSync(join(dir, name), "utf8"));
      expect(article.slug).toBe(name.replace(/\.md$/, ""));
      if (!article.draft) published.push(article.slug);
    }
    expect(listBlogSlugs()).toEqual(published.sort());
  });

  test("drafts are not prerendered", () => {
    const dir = mkdtempSync(join(tmpdir(), "blog-"));
    const frontmatter = (slug: string, draft: boolean) =>
      `---\ntitle: A title long enough\nexcerpt: An excerpt that is long enough to pass validation.\ndate: 2024-11-01\nreadTime: 2\ncategory: Technology\nslug: ${slug}\ndraft: ${draft}\n---\n\n${"Word ".repeat(400)}\n`;
    writeFileSync(join(dir, "published-one.md"), frontmatter("published-one", false));
    writeFileSync(join(dir, "draft-one.md"), frontmatter("draft-one", true));
    expect(listBlogSlugs(dir)).toEqual(["published-one"]);
  });

  test.each(knownSlugs)("%s is valid, well sized and safely rendered", (slug) => {
    const article = getArticle(slug);
    expect(article).toBeDefined();
    if (!article) return;
    expect(BLOG_CATEGORIES).toContain(article.category);
    expect(article.category).not.toBe("Press Coverage");
    expect(article.readTime).toBeGreaterThanOrEqual(2);
    expect(article.readTime).toBeLessThanOrEqual(6);
    expect(article.wordCount).toBeGreaterThanOrEqual(600);
    expect(article.wordCount).toBeLessThanOrEqual(1300);
    expect(Math.abs(article.readTime - estimateReadTime(article.wordCount))).toBeLessThanOrEqual(1);
    expect(article.html).toMatch(/<h2>/);
    expect(article.html).not.toMatch(/<script/i);
    expect(article.html).not.toMatch(/<h1/i);
  });

  test("an unknown slug has no article", () => {
    expect(getArticle("no-such-article")).toBeUndefined();
  });
});

describe("press items", () => {
  const press = listPressItems();

  test("two featured items, newest first, one carrying the page note", () => {
    expect(press.map((item) => item.date)).toEqual(["2025-05-21", "2025-05-15"]);
    for (const item of press) {
      expect(item.isFeatured).toBe(true);
      expect(item.category).toBe("Press Coverage");
      expect(item.externalLink).toMatch(/^https:\/\//);
    }
    expect(press.filter((item) => item.note === "Featured on Page 12")).toHaveLength(1);
  });

  test("every image exists under public/press", () => {
    for (const item of press) {
      expect(() => readFileSync(join(process.cwd(), "public", item.image))).not.toThrow();
    }
  });
});
