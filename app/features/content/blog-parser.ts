import { Marked, type Tokens } from "marked";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { formatDisplayDate } from "#app/lib/site/display-date.ts";
import { BLOG_CATEGORIES, SLUG_PATTERN } from "./content-rules.ts";

// Pure parsing and validation of blog and press markdown files. NOTE: no `import.meta.glob` here, so
// tests and scripts can use it outside Vite; blog.server.ts feeds it the files at build time.

export { BLOG_CATEGORIES, type BlogCategory } from "./content-rules.ts";

/** Reading speed used to check each article's stated read time. */
export const WORDS_PER_MINUTE = 230;

export const BlogFrontmatterSchema = z.strictObject({
  title: z.string().trim().min(1),
  excerpt: z.string().trim().min(1),
  // NOTE: yaml 2 (core schema) keeps an unquoted 2024-11-28 as a string, so no Date coercion is needed.
  date: z.iso.date({ error: "date must be YYYY-MM-DD" }),
  readTime: z.int().min(1).max(60),
  category: z.enum(BLOG_CATEGORIES),
  slug: z.string().regex(SLUG_PATTERN, "slug must be lower-case words joined by hyphens"),
  draft: z.boolean().default(false),
});
export type BlogFrontmatter = z.infer<typeof BlogFrontmatterSchema>;

export const PressFrontmatterSchema = BlogFrontmatterSchema.extend({
  category: z.literal("Press Coverage"),
  /** The publication's name, shown beside its mark and used as the image's alternative text. */
  publication: z.string().trim().min(1),
  externalLink: z.url({ protocol: /^https$/, error: "externalLink must be an https URL" }),
  isFeatured: z.boolean().default(false),
  image: z
    .string()
    .regex(/^\/press\/[a-z0-9-]+\.(?:svg|png|jpe?g|webp)$/, "image must be a file under /press/"),
  /** A short line such as 'Featured on Page 12'. */
  note: z.string().trim().min(1).optional(),
});
export type PressFrontmatter = z.infer<typeof PressFrontmatterSchema>;

/** What list pages need: everything but the body. */
export type ArticleSummary = Omit<BlogFrontmatter, "draft"> & {
  /** The date as readers see it, e.g. '28 November 2024'. */
  displayDate: string;
};
export type Article = ArticleSummary & { html: string; wordCount: number; draft: boolean };
export type PressItem = Omit<PressFrontmatter, "draft"> & { displayDate: string; draft: boolean };

export { formatDisplayDate };

export class ContentError extends Error {
  override name = "ContentError";
}

const frontmatterPattern = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/;

/** Splits a markdown file into its YAML frontmatter (parsed, not yet validated) and its body. */
export function splitFrontmatter(fileName: string, raw: string): { data: unknown; body: string } {
  const match = frontmatterPattern.exec(raw.replace(/^\uFEFF/, ""));
  if (!match) throw new ContentError(`${fileName}: missing YAML frontmatter between '---' lines`);
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? "");
  } catch (error) {
    throw new ContentError(`${fileName}: frontmatter is not valid YAML: ${(error as Error).message}`);
  }
  return { data, body: match[2] ?? "" };
}

function validate<T extends z.ZodType>(schema: T, fileName: string, data: unknown): z.infer<T> {
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new ContentError(`Invalid frontmatter in ${fileName}:\n${z.prettifyError(result.error)}`);
  }
  const slug = (result.data as { slug: string }).slug;
  const expected = fileName.replace(/^.*\//, "").replace(/\.md$/, "");
  if (slug !== expected) {
    throw new ContentError(
      `Invalid frontmatter in ${fileName}: slug '${slug}' must equal the file name '${expected}'`,
    );
  }
  return result.data;
}

/** Words in a markdown body, ignoring the markup; used to keep `readTime` honest. */
export function countWords(markdown: string): number {
  // A link counts as its text. Neither part may run past a bracket of its kind (one level of
  // parentheses inside the address): `[^\]]*` let each unclosed `[` scan to the end of the text, and a
  // studio post of 99,000 `[` held the event loop for 24 s.
  const text = markdown
    .replace(/\[([^[\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, "$1")
    .replace(/[#>*_`|-]+/g, " ")
    .trim();
  return text ? text.split(/\s+/).length : 0;
}

/** Minutes to read `wordCount` words, rounded up. */
export function estimateReadTime(wordCount: number): number {
  return Math.max(1, Math.ceil(wordCount / WORDS_PER_MINUTE));
}

const htmlEscapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => htmlEscapes[char] ?? char);
}

/** Relative links, fragments and http(s)/mailto only: no `javascript:` or `data:` URLs. */
function isSafeUrl(href: string): boolean {
  const value = href.trim();
  if (/^(?:\/(?!\/)|#|\.{1,2}\/)/.test(value)) return true;
  return /^(?:https?:|mailto:)/i.test(value);
}

// NOTE: the content is our own, but the body is injected with dangerouslySetInnerHTML, so raw HTML in
// markdown is shown as text rather than passed through, and unsafe link targets are dropped.
const markdown = new Marked({
  gfm: true,
  renderer: {
    html({ text, block }: Tokens.HTML | Tokens.Tag) {
      return block ? `<p>${escapeHtml(text.trim())}</p>\n` : escapeHtml(text);
    },
    link(token) {
      if (!isSafeUrl(token.href)) return this.parser.parseInline(token.tokens);
      return false;
    },
    image(token) {
      if (!isSafeUrl(token.href)) return escapeHtml(token.text);
      return false;
    },
  },
});

/** Markdown to HTML: headings, lists, blockquotes, emphasis and links; raw HTML escaped. */
export function renderMarkdown(body: string): string {
  return markdown.parse(body, { async: false });
}

/** An article with the markdown it was rendered from: what the content studio imports (issue 24). */
export type ArticleSource = Article & { markdown: string };

/** Parses and validates one file of content/blog; throws a ContentError naming the file. */
export function parseArticle(fileName: string, raw: string): Article {
  const { markdown: _markdown, ...article } = parseArticleSource(fileName, raw);
  return article;
}

/** parseArticle, keeping the markdown body (pages never need it, so it stays out of Article). */
export function parseArticleSource(fileName: string, raw: string): ArticleSource {
  const { data, body } = splitFrontmatter(fileName, raw);
  const { draft, ...frontmatter } = validate(BlogFrontmatterSchema, fileName, data);
  if (!body.trim()) throw new ContentError(`${fileName}: the article has no body`);
  return {
    ...frontmatter,
    draft,
    displayDate: formatDisplayDate(frontmatter.date),
    html: renderMarkdown(body),
    wordCount: countWords(body),
    markdown: body,
  };
}

/** Parses and validates one file of content/press (frontmatter only: press items link out). */
export function parsePressItem(fileName: string, raw: string): PressItem {
  const { data } = splitFrontmatter(fileName, raw);
  const frontmatter = validate(PressFrontmatterSchema, fileName, data);
  return { ...frontmatter, displayDate: formatDisplayDate(frontmatter.date) };
}

/** Newest first; the slug breaks ties so the order never depends on the file system. */
export function byNewestFirst(a: { date: string; slug: string }, b: { date: string; slug: string }): number {
  return b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug);
}

/** The summary of an article: no body, no draft flag. */
export function toSummary({
  html: _html,
  wordCount: _words,
  draft: _draft,
  ...summary
}: Article): ArticleSummary {
  return summary;
}
