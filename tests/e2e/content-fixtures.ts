import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type Article,
  type PressItem,
  parseArticle,
  parsePressItem,
} from "#app/features/content/blog-parser.ts";

// What the e2e tests expect to see, read from the same markdown the site is built from, so a copy
// edit in content/ does not break a test while a page that drops or garbles the content does.

const contentDir = join(import.meta.dirname, "..", "..", "content");

/** The article slugs SPEC section 2 names. */
export const ARTICLE_SLUGS = [
  "hidden-costs-poor-contract-management",
  "digital-transformation-contract-management",
  "signs-need-better-contract-management",
] as const;

export type ExpectedArticle = Article & {
  /** The body's level-2 headings, as written in the markdown. */
  h2s: string[];
};

export function loadArticle(slug: string): ExpectedArticle {
  const file = join(contentDir, "blog", `${slug}.md`);
  const raw = readFileSync(file, "utf8");
  const h2s = [...raw.matchAll(/^## (.+)$/gm)].map((match) => (match[1] ?? "").trim());
  return { ...parseArticle(`content/blog/${slug}.md`, raw), h2s };
}

export const ARTICLES: ExpectedArticle[] = ARTICLE_SLUGS.map(loadArticle);

/** Press coverage shown under 'Featured Press Coverage', newest first. */
export const PRESS_ITEMS: PressItem[] = readdirSync(join(contentDir, "press"))
  .filter((file) => file.endsWith(".md"))
  .map((file) =>
    parsePressItem(`content/press/${file}`, readFileSync(join(contentDir, "press", file), "utf8")),
  )
  .filter((item) => !item.draft)
  .sort((a, b) => b.date.localeCompare(a.date));
