import type { ArticleSource, PressItem } from "../blog-parser.ts";
import type { PostFields } from "./post-fields.ts";
import { type Db, fieldColumns, insertRevision, takeVersion } from "./post-rows.server.ts";

// The files of content/ become posts on first start (issue 24): same addresses, same dates, the
// published ones published, drafts as drafts, each with revision 1 ('import'). A file is imported
// once: post_imports remembers it, so a post renamed or deleted in the studio does not come back at
// the next start, and a file added to content/ later is imported then. Several instances starting
// at once on PostgreSQL are safe: the import runs in one transaction that first takes the posts
// version (a row lock), so the others wait for it and then find every file already claimed.

export type ImportableContent = { articles: ArticleSource[]; pressItems: PressItem[] };

export type ImportResult = {
  /** Addresses imported now. */
  imported: string[];
  /** Files left out because a post (or an old address) already had their address. */
  skipped: string[];
};

type Item = { source: string; fields: PostFields; draft: boolean; date: string };

const midnight = (date: string) => `${date}T00:00:00.000Z`;

function itemsOf({ articles, pressItems }: ImportableContent): Item[] {
  const items: Item[] = [
    ...articles.map((article) => ({
      source: `blog/${article.slug}`,
      draft: article.draft,
      date: article.date,
      fields: {
        kind: "article" as const,
        slug: article.slug,
        title: article.title,
        excerpt: article.excerpt,
        body: `${article.markdown.replace(/\r\n?/g, "\n").trim()}\n`,
        tags: [],
        category: article.category,
        author: "",
        authorUserId: null,
        coverImage: null,
        coverAlt: "",
        seoTitle: "",
        seoDescription: "",
        outlet: "",
        originalUrl: null,
        featured: false,
        note: "",
        readTime: article.readTime,
      },
    })),
    ...pressItems.map((item) => ({
      source: `press/${item.slug}`,
      draft: item.draft,
      date: item.date,
      fields: {
        kind: "press" as const,
        slug: item.slug,
        title: item.title,
        excerpt: item.excerpt,
        body: "",
        tags: [],
        category: item.category,
        author: "",
        authorUserId: null,
        // The publication's mark, under public/press/; its name is the image's text alternative.
        coverImage: item.image,
        coverAlt: item.publication,
        seoTitle: "",
        seoDescription: "",
        outlet: item.publication,
        originalUrl: item.externalLink,
        featured: item.isFeatured,
        note: item.note ?? "",
        readTime: item.readTime,
      },
    })),
  ];
  // One order on every instance, so concurrent imports take their rows' locks alike.
  return items.sort((a, b) => a.source.localeCompare(b.source));
}

/** Imports the files not imported before; a no-op (one read) once every file has been. */
export async function importContentFiles(
  db: Db,
  content: ImportableContent,
  now = new Date(),
): Promise<ImportResult> {
  const items = itemsOf(content);
  const result: ImportResult = { imported: [], skipped: [] };
  if (items.length === 0) return result;
  const done = await db
    .selectFrom("postImports")
    .select("source")
    .where(
      "source",
      "in",
      items.map((item) => item.source),
    )
    .execute();
  if (done.length === items.length) return result;
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    const version = await takeVersion(trx, now);
    for (const item of items) {
      const claimed = await trx
        .insertInto("postImports")
        .values({ source: item.source, postId: null, importedAt: at })
        .onConflict((conflict) => conflict.column("source").doNothing())
        .returning("source")
        .executeTakeFirst();
      if (!claimed) continue;
      const { slug } = item.fields;
      const taken =
        (await trx.selectFrom("posts").select("id").where("slug", "=", slug).executeTakeFirst()) ??
        (await trx.selectFrom("postRedirects").select("postId").where("slug", "=", slug).executeTakeFirst());
      if (taken) {
        result.skipped.push(slug);
        continue;
      }
      const published = item.draft ? null : midnight(item.date);
      const row = await trx
        .insertInto("posts")
        .values({
          ...fieldColumns(item.fields),
          status: item.draft ? "draft" : "published",
          publishAt: published,
          firstPublishedAt: published,
          revision: 1,
          createdAt: at,
          createdBy: null,
          updatedAt: at,
          updatedBy: null,
          changedAt: at,
          changeVersion: version,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const postId = Number(row.id);
      await insertRevision(trx, {
        postId,
        revision: 1,
        kind: "import",
        fields: item.fields,
        actor: null,
        now,
      });
      await trx.updateTable("postImports").set({ postId }).where("source", "=", item.source).execute();
      result.imported.push(slug);
    }
  });
  return result;
}
