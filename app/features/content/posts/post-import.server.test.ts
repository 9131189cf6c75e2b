import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "#app/db/database.server.ts";
import { migrateToLatest } from "#app/db/migrate.server.ts";
import {
  checkPostgres,
  createPostgresSchema,
  describeEachDatabase,
  TEST_POSTGRES_URL,
} from "../../../../tests/support/databases.ts";
import { contentFilesForImport } from "../blog.server.ts";
import { parseArticleSource, renderMarkdown } from "../blog-parser.ts";
import { POST_FIELDS } from "./post-fields.ts";
import { type ImportableContent, importContentFiles } from "./post-import.server.ts";
import { listVisiblePosts } from "./post-publishing.server.ts";
import { listRevisions } from "./post-revisions.server.ts";
import { PostCreateSchema } from "./post-schema.ts";
import { deleteDraft, getPostBySlug, listPosts, updatePost } from "./posts-store.server.ts";

// The files of content/ become posts on first start (issue 24): the real files, their addresses,
// dates and fields; once each, however often and however many instances start.

const START = new Date("2026-12-01T09:00:00.000Z");
const files = contentFilesForImport();

const draftFile = (slug: string) =>
  parseArticleSource(
    `content/blog/${slug}.md`,
    `---\ntitle: A draft in a file\nexcerpt: Not ready yet.\ndate: 2024-12-01\nreadTime: 2\ncategory: Technology\nslug: ${slug}\ndraft: true\n---\n\nWork in progress.\n`,
  );

describeEachDatabase("importing content/", (use) => {
  it("imports every article and press item as published, with its address, date and fields", async () => {
    const { db } = use();
    const result = await importContentFiles(db, files, START);
    expect(result.imported.sort()).toEqual(
      [...files.articles.map((a) => a.slug), ...files.pressItems.map((p) => p.slug)].sort(),
    );
    expect(result.skipped).toEqual([]);

    const visible = await listVisiblePosts(db, START);
    expect(visible.map((post) => [post.slug, post.firstPublishedAt])).toEqual([
      ["site-ledger-clausebridge-ai-contract-consolidation", "2025-05-21T00:00:00.000Z"],
      ["build-practice-monthly-contracts-that-read-themselves", "2025-05-15T00:00:00.000Z"],
      ["hidden-costs-poor-contract-management", "2024-11-28T00:00:00.000Z"],
      ["digital-transformation-contract-management", "2024-11-20T00:00:00.000Z"],
      ["signs-need-better-contract-management", "2024-11-15T00:00:00.000Z"],
    ]);

    for (const article of files.articles) {
      const post = await getPostBySlug(db, article.slug, START);
      expect(post).toMatchObject({
        kind: "article",
        title: article.title,
        excerpt: article.excerpt,
        category: article.category,
        readTime: article.readTime,
        status: "published",
        revision: 1,
        publishAt: `${article.date}T00:00:00.000Z`,
      });
      // The same page: the stored markdown renders to the HTML the file does.
      expect(renderMarkdown(post?.body ?? "")).toBe(article.html);
      // And the editor can save it as it is.
      const fields = Object.fromEntries(POST_FIELDS.map((name) => [name, post?.[name]]));
      expect(PostCreateSchema.safeParse(fields).error).toBeUndefined();
      const revisions = await listRevisions(db, post?.id ?? 0);
      expect(revisions?.revisions).toMatchObject([
        { revision: 1, kind: "import", savedBy: null, savedByUsername: null },
      ]);
    }
    const press = await getPostBySlug(db, "build-practice-monthly-contracts-that-read-themselves", START);
    expect(press).toMatchObject({
      kind: "press",
      category: "Press Coverage",
      outlet: "Build Practice Monthly",
      originalUrl: "https://www.buildpracticemonthly.co.uk/features/contracts-that-read-themselves",
      coverImage: "/press/build-practice-monthly.svg",
      coverAlt: "Build Practice Monthly",
      featured: true,
      note: "Featured on Page 12",
      readTime: 5,
      body: "",
    });
  });

  it("imports nothing the second time, nor a post renamed or deleted since; a new file, once", async () => {
    const { db } = use();
    expect(await importContentFiles(db, files, START)).toEqual({ imported: [], skipped: [] });
    const hidden = await getPostBySlug(db, "hidden-costs-poor-contract-management");
    const renamed = await updatePost(db, hidden?.id ?? 0, { slug: "the-hidden-costs" }, 1, null, START);
    expect(renamed.kind).toBe("saved");

    const withDraft: ImportableContent = {
      ...files,
      articles: [...files.articles, draftFile("a-draft-in-a-file")],
    };
    expect(await importContentFiles(db, withDraft, START)).toEqual({
      imported: ["a-draft-in-a-file"],
      skipped: [],
    });
    const draft = await getPostBySlug(db, "a-draft-in-a-file", START);
    expect(draft).toMatchObject({ status: "draft", publishAt: null, firstPublishedAt: null });
    expect(await deleteDraft(db, draft?.id ?? 0, null)).toEqual({ kind: "deleted" });

    expect(await importContentFiles(db, withDraft, START)).toEqual({ imported: [], skipped: [] });
    expect(await getPostBySlug(db, "a-draft-in-a-file")).toBeUndefined();
    expect(await getPostBySlug(db, "hidden-costs-poor-contract-management")).toBeUndefined();
    expect((await listPosts(db)).total).toBe(5);
  });

  it("leaves out a file whose address a post already has", async () => {
    const { db } = use();
    const clash: ImportableContent = { articles: [draftFile("the-hidden-costs")], pressItems: [] };
    expect(await importContentFiles(db, clash, START)).toEqual({
      imported: [],
      skipped: ["the-hidden-costs"],
    });
    expect((await getPostBySlug(db, "the-hidden-costs"))?.title).toBe(
      "The Hidden Costs of Poor Contract Management in Construction",
    );
  });
});

describe("several instances importing at once", () => {
  async function twoInstances(kind: "sqlite" | "postgres") {
    if (kind === "postgres") {
      const schema = await createPostgresSchema();
      const open = () => openDatabase(TEST_POSTGRES_URL, { postgresSchema: schema.schema, poolSize: 2 });
      const first = open();
      await migrateToLatest(first.db);
      const second = open();
      return {
        first,
        second,
        async dispose() {
          await first.close();
          await second.close();
          await schema.drop();
        },
      };
    }
    const dir = mkdtempSync(join(tmpdir(), "posts-import-"));
    const first = openDatabase(join(dir, "app.sqlite"));
    await migrateToLatest(first.db);
    const second = openDatabase(join(dir, "app.sqlite"));
    return {
      first,
      second,
      async dispose() {
        await first.close();
        await second.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  for (const kind of ["sqlite", "postgres"] as const) {
    it(`imports each file exactly once [${kind}]`, async () => {
      if (kind === "postgres" && !(await checkPostgres())) return;
      const instances = await twoInstances(kind);
      try {
        const results = await Promise.all(
          [instances.first, instances.second, instances.first, instances.second].map((instance) =>
            importContentFiles(instance.db, files, START),
          ),
        );
        const imported = results.flatMap((result) => result.imported).sort();
        expect(imported).toEqual(
          [...files.articles.map((a) => a.slug), ...files.pressItems.map((p) => p.slug)].sort(),
        );
        const { db } = instances.first;
        expect((await listPosts(db)).total).toBe(5);
        const revisions = await db.selectFrom("postRevisions").select(["postId", "revision"]).execute();
        expect(revisions).toHaveLength(5);
      } finally {
        await instances.dispose();
      }
    });
  }
});
