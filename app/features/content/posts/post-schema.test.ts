import { describe, expect, it } from "vitest";
import {
  checkPostFields,
  MESSAGES,
  newPostFields,
  type Parsed,
  PostFieldSchemas,
  PublishSchema,
  parsePostCreate,
  parsePostPatch,
  publishProblems,
} from "./post-schema.ts";

// The post schema (issue 24): its limits, shapes and the messages a person reads, shared by the
// editor in the browser and the server.

const ok = { kind: "article", title: "Hidden costs", body: "Words." };

function errorsOf(body: unknown, parse: (body: unknown) => Parsed<unknown> = parsePostCreate) {
  const result = parse(body);
  return result.success ? {} : result.errors;
}

describe("a new post", () => {
  it("needs a title and a kind; the rest may wait", () => {
    expect(errorsOf({})).toEqual({ kind: MESSAGES.kind, title: MESSAGES.titleRequired });
    expect(errorsOf({ kind: "article", title: "   " })).toEqual({ title: MESSAGES.titleRequired });
    expect(errorsOf({ kind: "podcast", title: "A" })).toEqual({ kind: MESSAGES.kind });
    const parsed = parsePostCreate({ kind: "article", title: "  Hidden costs  " });
    expect(parsed).toEqual({ success: true, data: { kind: "article", title: "Hidden costs" } });
  });

  it("keeps each field within its limit, with a message that says what to do", () => {
    const long = (n: number) => "x".repeat(n);
    expect(errorsOf({ ...ok, title: long(201) })).toEqual({
      title: "Keep the title to 200 characters or fewer",
    });
    expect(errorsOf({ ...ok, title: long(200) })).toEqual({});
    expect(errorsOf({ ...ok, excerpt: long(501) })).toEqual({
      excerpt: "Keep the summary to 500 characters or fewer",
    });
    expect(errorsOf({ ...ok, body: long(100_001) })).toEqual({
      body: "Keep the text to 100,000 characters or fewer",
    });
    expect(errorsOf({ ...ok, body: long(100_000) })).toEqual({});
    expect(errorsOf({ ...ok, seoTitle: long(71) })).toEqual({
      seoTitle: "Keep the search title to 70 characters or fewer, or search engines cut it short",
    });
    expect(errorsOf({ ...ok, seoDescription: long(161) })).toEqual({
      seoDescription:
        "Keep the search description to 160 characters or fewer, or search engines cut it short",
    });
    expect(errorsOf({ ...ok, author: long(101) })).toEqual({
      author: "Keep the author's name to 100 characters or fewer",
    });
    expect(errorsOf({ ...ok, slug: `a${"-b".repeat(50)}` })).toEqual({
      slug: "Keep the address to 100 characters or fewer",
    });
  });

  it("takes at most 10 tags of at most 40 characters, as a list or one comma-separated box", () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `tag${i}`);
    expect(errorsOf({ ...ok, tags: eleven })).toEqual({ tags: MESSAGES.tags });
    expect(errorsOf({ ...ok, tags: ["x".repeat(41)] })).toEqual({
      tags: "Keep each tag to 40 characters or fewer",
    });
    expect(errorsOf({ ...ok, tags: ["NEC4", " "] })).toEqual({ tags: MESSAGES.tagEmpty });
    expect(errorsOf({ ...ok, tags: "nope" as unknown })).toEqual({});
    expect(parsePostCreate({ ...ok, tags: "NEC4, JCT , nec4,," })).toMatchObject({
      success: true,
      data: { tags: ["NEC4", "JCT"] },
    });
    expect(errorsOf({ ...ok, tags: 7 })).toEqual({ tags: "Enter the tags as a list" });
  });

  it("takes an address in blog files' form only", () => {
    for (const slug of [
      "Hidden-Costs",
      "hidden_costs",
      "hidden--costs",
      "-hidden",
      "hidden-",
      "héllo",
      "a b",
    ])
      expect(errorsOf({ ...ok, slug })).toEqual({ slug: MESSAGES.slugPattern });
    expect(errorsOf({ ...ok, slug: "hidden-costs-2026" })).toEqual({});
    // An empty address on a new post: one is suggested from the title.
    expect(parsePostCreate({ ...ok, slug: "" })).toMatchObject({ success: true, data: { slug: undefined } });
  });

  it("links the original article over https only, to a real host name", () => {
    for (const originalUrl of [
      "http://www.siteledger.co.uk/news",
      "javascript:alert(1)",
      "data:text/html,hi",
      "https://",
      "https://localhost/x",
      "ftp://example.com/x",
      "siteledger.co.uk/news",
    ])
      expect(errorsOf({ ...ok, kind: "press", originalUrl })).toEqual({ originalUrl: MESSAGES.originalUrl });
    expect(
      parsePostCreate({ ...ok, kind: "press", originalUrl: "https://www.siteledger.co.uk/news/x" }),
    ).toMatchObject({
      success: true,
    });
    expect(parsePostCreate({ ...ok, originalUrl: "" })).toMatchObject({
      success: true,
      data: { originalUrl: null },
    });
  });

  it("takes a media library id or an imported press logo as the cover, nothing else", () => {
    for (const coverImage of [
      "../../etc/passwd",
      "https://evil.example/x.png",
      "/press/../x.svg",
      "a b",
      "x".repeat(65),
    ])
      expect(errorsOf({ ...ok, coverImage })).toEqual({ coverImage: MESSAGES.coverImage });
    for (const coverImage of ["42", 42, "/press/site-ledger.svg"])
      expect(errorsOf({ ...ok, coverImage })).toEqual({});
  });

  it("refuses control characters and bidirectional overrides with the field's own message", () => {
    expect(errorsOf({ ...ok, title: "Hidden\u0000costs" })).toEqual({
      title: "Remove the invisible control characters from the title",
    });
    expect(errorsOf({ ...ok, title: "Hidden \u202ecosts" })).toEqual({
      title: "Remove the invisible control characters from the title",
    });
    expect(errorsOf({ ...ok, body: "Line one\u0007" })).toEqual({
      body: "Remove the invisible control characters from the text",
    });
    // The text keeps its line breaks and tabs; Windows line breaks become \n.
    expect(parsePostCreate({ ...ok, body: "  Indented\r\n\tTabbed\r\n" })).toMatchObject({
      success: true,
      data: { body: "  Indented\n\tTabbed\n" },
    });
  });

  it("reads form values: featured, reading time and the author's account as text", () => {
    expect(
      parsePostCreate({ ...ok, kind: "press", featured: "on", readTime: "5", authorUserId: "12" }),
    ).toMatchObject({ success: true, data: { featured: true, readTime: 5, authorUserId: 12 } });
    expect(parsePostCreate({ ...ok, readTime: "" })).toMatchObject({
      success: true,
      data: { readTime: null },
    });
    expect(errorsOf({ ...ok, readTime: 61 })).toEqual({ readTime: MESSAGES.readTime });
    expect(errorsOf({ ...ok, readTime: "2.5" })).toEqual({ readTime: MESSAGES.readTime });
    expect(errorsOf({ ...ok, featured: "maybe" })).toEqual({ featured: MESSAGES.featured });
  });

  it("names a field it does not know", () => {
    expect(errorsOf({ ...ok, status: "published" })).toEqual({ form: "“status” is not a field of a post" });
  });
});

describe("a save", () => {
  it("carries the revision it was made on", () => {
    expect(errorsOf({ title: "New" }, parsePostPatch)).toEqual({ revision: MESSAGES.revision });
    expect(errorsOf({ revision: "3", title: "New" }, parsePostPatch)).toEqual({
      revision: MESSAGES.revision,
    });
    expect(errorsOf({ revision: 0 }, parsePostPatch)).toEqual({ revision: MESSAGES.revision });
    expect(parsePostPatch({ revision: 3, title: "New", autosave: true })).toEqual({
      success: true,
      data: { revision: 3, title: "New", autosave: true },
    });
  });

  it("may not empty the title or the address", () => {
    expect(errorsOf({ revision: 1, title: "" }, parsePostPatch)).toEqual({ title: MESSAGES.titleRequired });
    expect(errorsOf({ revision: 1, slug: "" }, parsePostPatch)).toEqual({ slug: MESSAGES.slugRequired });
  });
});

describe("the fields together", () => {
  const fields = (extra: Record<string, unknown> = {}) => {
    const parsed = parsePostCreate({ ...ok, ...extra });
    if (!parsed.success) throw new Error(JSON.stringify(parsed.errors));
    return newPostFields({ ...parsed.data, slug: "a-slug" });
  };

  it("puts a press item in Press Coverage, and keeps an article out of it", () => {
    expect(fields({ kind: "press", category: "Technology" }).category).toBe("Press Coverage");
    expect(fields().category).toBe("Industry Insights");
    expect(checkPostFields(fields({ category: "Press Coverage" }))).toEqual({
      category: MESSAGES.articleCategory,
    });
  });

  it("lists what a post needs before it can be published", () => {
    expect(publishProblems(fields({ excerpt: "Summary." }))).toEqual({});
    expect(publishProblems(fields({ body: " \n" }))).toEqual({
      excerpt: MESSAGES.excerptRequired,
      body: MESSAGES.bodyRequired,
    });
    expect(
      publishProblems(fields({ kind: "press", body: "", excerpt: "Coverage.", coverImage: "/press/x.svg" })),
    ).toEqual({
      outlet: MESSAGES.outletRequired,
      originalUrl: MESSAGES.originalUrlRequired,
      coverAlt: MESSAGES.coverAltRequired,
    });
  });
});

describe("a publication time", () => {
  it("is an ISO date and time with its zone", () => {
    expect(PublishSchema.safeParse({ at: "2026-12-01T09:00:00Z" }).success).toBe(true);
    expect(PublishSchema.safeParse({ at: "2026-12-01T09:00:00+01:00" }).success).toBe(true);
    expect(PublishSchema.safeParse({}).success).toBe(true);
    for (const at of ["2026-12-01", "tomorrow", "2026-12-01T09:00:00", 1764579600000])
      expect(PublishSchema.safeParse({ at }).error?.issues[0]?.message).toMatch(
        /ISO date and time with its zone/,
      );
  });
});

describe("one field alone", () => {
  it("checks as the editor leaves it", () => {
    expect(PostFieldSchemas.title.safeParse("").error?.issues[0]?.message).toBe(MESSAGES.titleRequired);
    expect(PostFieldSchemas.slug.safeParse("ok-slug").success).toBe(true);
  });
});
