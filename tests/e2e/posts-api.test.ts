import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { checkPostgres, createPostgresSchema } from "../support/databases.ts";
import { signIn } from "./support/accounts.ts";

// Issue 24, the content studio's JSON API as a marketer drives it against the production server, on
// SQLite and PostgreSQL: the posts imported from content/ at start-up, a draft created (201 with its
// preview link), saved, a stale save refused with both versions (409), scheduled, its revisions
// listed and compared, one restored, published and unpublished; every publish, schedule, restore and
// unpublish in the access log, in words on its page. Sales is refused everything (403), a
// cross-site write too, and a body over the limit.

const PASSWORD = "content studio passphrase";
const ACCOUNTS = {
  admin: "cs-admin",
  marketer: "cs-marketer",
  editor: "cs-editor",
  sales: "cs-sales",
} as const;
const IMPORTED = [
  "site-ledger-clausebridge-ai-contract-consolidation",
  "build-practice-monthly-contracts-that-read-themselves",
  "hidden-costs-poor-contract-management",
  "digital-transformation-contract-management",
  "signs-need-better-contract-management",
];

type Json = Record<string, unknown> & { [key: string]: unknown };

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`the posts API [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    let server: RunningServer;
    let database: AppDatabase;
    let drop: () => Promise<void> = async () => {};
    const cookies: Record<keyof typeof ACCOUNTS, string> = { admin: "", marketer: "", editor: "", sales: "" };

    beforeAll(async () => {
      if (!available) return;
      let databaseUrl: string;
      if (kind === "postgres") {
        const schema = await createPostgresSchema();
        databaseUrl = schema.url;
        drop = schema.drop;
      } else {
        const dir = mkdtempSync(join(tmpdir(), "posts-api-"));
        databaseUrl = join(dir, "posts.sqlite");
        drop = async () => rmSync(dir, { recursive: true, force: true });
      }
      server = await startServer({
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: "error",
        ADMIN_USERNAME: ACCOUNTS.admin,
        ADMIN_PASSWORD: PASSWORD,
      });
      database = openDatabase(databaseUrl, { poolSize: 2 });
      await createUser(database.db, { username: ACCOUNTS.marketer, password: PASSWORD, role: "marketing" });
      await createUser(database.db, { username: ACCOUNTS.editor, password: PASSWORD, role: "marketing" });
      await createUser(database.db, { username: ACCOUNTS.sales, password: PASSWORD, role: "sales" });
      for (const name of Object.keys(ACCOUNTS) as (keyof typeof ACCOUNTS)[])
        cookies[name] = await signIn(server.url, ACCOUNTS[name], PASSWORD);
    }, 90_000);

    afterAll(async () => {
      await server?.stop();
      await database?.close();
      await drop();
    });

    async function call(
      who: keyof typeof ACCOUNTS,
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ): Promise<{ status: number; body: Json; headers: Headers }> {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          Cookie: cookies[who],
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: text ? (JSON.parse(text) as Json) : {},
        headers: response.headers,
      };
    }

    it.skipIf(!available)("lists the posts imported from content/ at start-up", async () => {
      const list = await call("marketer", "GET", "/api/admin/posts?status=published&pageSize=10");
      expect(list.status).toBe(200);
      expect(list.body.total).toBe(5);
      const posts = list.body.posts as Json[];
      expect(posts.map((post) => post.slug).sort()).toEqual([...IMPORTED].sort());
      expect(posts.find((post) => post.slug === "hidden-costs-poor-contract-management")).toMatchObject({
        kind: "article",
        status: "published",
        revision: 1,
        firstPublishedAt: "2024-11-28T00:00:00.000Z",
        category: "Industry Insights",
      });
      expect(posts[0]).not.toHaveProperty("body");
      const press = await call("marketer", "GET", "/api/admin/posts?kind=press&q=site%20ledger");
      expect((press.body.posts as Json[]).map((post) => [post.slug, post.outlet])).toEqual([
        ["site-ledger-clausebridge-ai-contract-consolidation", "Site Ledger"],
      ]);
      expect((await call("marketer", "GET", "/api/admin/posts?status=live")).status).toBe(400);
    });

    it.skipIf(!available)(
      "creates, saves, refuses a stale save with both versions, schedules, compares and restores, publishes and unpublishes",
      async () => {
        // Create: 201 with the id, the suggested address, the status, the revision and a preview link.
        const created = await call("marketer", "POST", "/api/admin/posts", {
          kind: "article",
          title: "Retention: the money you already earned",
          body: "Retention is money you have earned.\n\nMost firms forget to ask for it back.",
          tags: ["retention", "cash flow"],
        });
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({
          slug: "retention-the-money-you-already-earned",
          status: "draft",
          revision: 1,
          title: "Retention: the money you already earned",
          tags: ["retention", "cash flow"],
        });
        const id = created.body.id as number;
        expect(created.headers.get("location")).toBe(`/api/admin/posts/${id}`);
        expect(created.body.previewUrl).toMatch(new RegExp(`^/preview/${id}\\.\\d+\\.[A-Za-z0-9_-]{22}$`));

        // A save on revision 1.
        const saved = await call("marketer", "PATCH", `/api/admin/posts/${id}`, {
          revision: 1,
          excerpt: "Why retention slips away, and how to get it back on time.",
          body: "Retention is money you have earned.\n\nMost firms forget to ask for it back.\n\nSet a reminder.",
        });
        expect(saved.status).toBe(200);
        expect(saved.body).toMatchObject({ revision: 2, changed: true });

        // A colleague who opened revision 1 saves: refused, with both versions and what differs.
        const stale = await call("editor", "PATCH", `/api/admin/posts/${id}`, {
          revision: 1,
          title: "Retention, explained",
        });
        expect(stale.status).toBe(409);
        expect(stale.body).toMatchObject({
          code: "revision-conflict",
          baseRevision: 1,
          yours: { title: "Retention, explained", excerpt: "" },
          latest: {
            id,
            revision: 2,
            title: "Retention: the money you already earned",
            excerpt: "Why retention slips away, and how to get it back on time.",
          },
        });
        expect(stale.body.message).toMatch(/Someone saved this post after you opened it/);
        const differences = stale.body.differences as {
          fields: { field: string }[];
          body: { added: number };
        };
        expect(differences.fields.map((change) => change.field)).toEqual(["title", "excerpt"]);
        expect(differences.body.added).toBe(2);

        // Invalid input: the field's message.
        const invalid = await call("marketer", "PATCH", `/api/admin/posts/${id}`, {
          revision: 2,
          seoTitle: "x".repeat(71),
        });
        expect(invalid.status).toBe(400);
        expect(invalid.body.errors).toEqual({
          seoTitle: "Keep the search title to 70 characters or fewer, or search engines cut it short",
        });

        // Scheduled an hour ahead.
        const at = new Date(Date.now() + 3_600_000);
        at.setUTCMilliseconds(0);
        const scheduled = await call("marketer", "POST", `/api/admin/posts/${id}/publish`, {
          at: at.toISOString(),
        });
        expect(scheduled.status).toBe(200);
        expect(scheduled.body).toMatchObject({
          status: "scheduled",
          publishAt: at.toISOString(),
          revision: 2,
        });
        const listedScheduled = await call("marketer", "GET", "/api/admin/posts?status=scheduled");
        expect((listedScheduled.body.posts as Json[]).map((post) => post.id)).toEqual([id]);

        // Revisions, newest first, and what changed between two.
        const revisions = await call("marketer", "GET", `/api/admin/posts/${id}/revisions?from=1&to=2`);
        expect(revisions.status).toBe(200);
        expect(revisions.body).toMatchObject({
          current: 2,
          revisions: [
            { revision: 2, kind: "edit", savedByUsername: ACCOUNTS.marketer },
            { revision: 1, kind: "create", savedByUsername: ACCOUNTS.marketer },
          ],
          diff: {
            from: 1,
            to: 2,
            fields: [{ field: "excerpt" }],
            body: { added: 2, removed: 0, complete: true },
          },
        });

        // Restore revision 1: a new revision 3 with its fields, still scheduled.
        const restored = await call("editor", "POST", `/api/admin/posts/${id}/revisions/1/restore`, {
          revision: 2,
        });
        expect(restored.status).toBe(200);
        expect(restored.body).toMatchObject({
          revision: 3,
          restoredFrom: 1,
          excerpt: "",
          status: "scheduled",
        });
        // Not ready to publish now: the summary went with the restore.
        const notReady = await call("marketer", "POST", `/api/admin/posts/${id}/publish`);
        expect(notReady.status).toBe(422);
        expect(notReady.body.errors).toEqual({
          excerpt: "Write a summary: lists, feeds and search results show it",
        });
        const again = await call("marketer", "PATCH", `/api/admin/posts/${id}`, {
          revision: 3,
          excerpt: "Retention, back on time.",
        });
        expect(again.body).toMatchObject({ revision: 4 });

        // Published now (no body at all), then unpublished.
        const published = await call("marketer", "POST", `/api/admin/posts/${id}/publish`);
        expect(published.status).toBe(200);
        expect(published.body).toMatchObject({ status: "published" });
        const unpublished = await call("marketer", "POST", `/api/admin/posts/${id}/unpublish`);
        expect(unpublished.status).toBe(200);
        expect(unpublished.body).toMatchObject({ status: "unpublished", revision: 4 });
        expect((await call("marketer", "POST", `/api/admin/posts/${id}/unpublish`)).status).toBe(409);
        // An unpublished post is not a draft: it stays, with its history.
        expect((await call("marketer", "DELETE", `/api/admin/posts/${id}`)).status).toBe(409);
        const got = await call("marketer", "GET", `/api/admin/posts/${id}`);
        expect(got.body).toMatchObject({
          id,
          status: "unpublished",
          revision: 4,
          body: expect.stringContaining("Most firms"),
        });

        // The access log, for an admin: each step, by whom.
        const log = await call("admin", "GET", "/api/admin/access-log?kind=content");
        const entries = (log.body.entries as { action: string; actor: string; detail: Json }[]).filter(
          (entry) => entry.detail.postId === id,
        );
        expect(entries.map((entry) => [entry.action, entry.actor])).toEqual([
          ["post_unpublished", ACCOUNTS.marketer],
          ["post_published", ACCOUNTS.marketer],
          ["post_restored", ACCOUNTS.editor],
          ["post_scheduled", ACCOUNTS.marketer],
        ]);
        const page = await fetch(`${server.url}/admin/access-log?kind=content`, {
          headers: { Cookie: cookies.admin },
        }).then((response) => response.text());
        for (const words of [
          "Scheduled a post",
          "Published a post",
          "Unpublished a post",
          "Restored an earlier version of a post",
          "“Retention: the money you already earned” (post #",
          "Brought back revision 1 as revision 3",
          "(UK time) at /blog/retention-the-money-you-already-earned",
        ])
          expect(page).toContain(words);
      },
      60_000,
    );

    it.skipIf(!available)("deletes a draft nobody published", async () => {
      const created = await call("marketer", "POST", "/api/admin/posts", {
        kind: "press",
        title: "A press draft",
      });
      expect(created.body).toMatchObject({
        kind: "press",
        category: "Press Coverage",
        slug: "a-press-draft",
      });
      const id = created.body.id as number;
      const deleted = await fetch(`${server.url}/api/admin/posts/${id}`, {
        method: "DELETE",
        headers: { Cookie: cookies.marketer },
      });
      expect(deleted.status).toBe(204);
      expect((await call("marketer", "GET", `/api/admin/posts/${id}`)).status).toBe(404);
    });

    it.skipIf(!available)(
      "refuses sales everything, a cross-site write, and a body over the limit",
      async () => {
        const anyPost = ((await call("marketer", "GET", "/api/admin/posts")).body.posts as Json[])[0]
          ?.id as number;
        for (const [method, path, body] of [
          ["GET", "/api/admin/posts", undefined],
          ["GET", `/api/admin/posts/${anyPost}`, undefined],
          ["GET", `/api/admin/posts/${anyPost}/revisions`, undefined],
          ["POST", "/api/admin/posts", { kind: "article", title: "Sales tries" }],
          ["PATCH", `/api/admin/posts/${anyPost}`, { revision: 1, title: "Sales edits" }],
          ["POST", `/api/admin/posts/${anyPost}/unpublish`, {}],
          ["POST", `/api/admin/posts/${anyPost}/revisions/1/restore`, {}],
        ] as const) {
          const answer = await call("sales", method, path, body);
          expect([method, path, answer.status, answer.body]).toEqual([
            method,
            path,
            403,
            { message: "Your role does not allow this." },
          ]);
        }
        const crossSite = await call(
          "marketer",
          "POST",
          "/api/admin/posts",
          { kind: "article", title: "From elsewhere" },
          { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
        );
        expect(crossSite.status).toBe(403);
        const longButFits = await call("marketer", "POST", "/api/admin/posts", {
          kind: "article",
          title: "Long but within the limit",
          body: "€".repeat(100_000),
        });
        expect(longButFits.status).toBe(201);
        const tooLong = await call("marketer", "POST", "/api/admin/posts", {
          kind: "article",
          title: "One too many",
          body: "€".repeat(100_001),
        });
        expect(tooLong.status).toBe(400);
        expect(tooLong.body.errors).toEqual({ body: "Keep the text to 100,000 characters or fewer" });
        const list = await call("marketer", "GET", "/api/admin/posts?q=from%20elsewhere");
        expect(list.body.total).toBe(0);
        // Last: a body declared over the limit is answered 413 unread, and fetch may reuse that
        // connection for a later request, which then waits behind the unread rest (server/http-server.ts).
        const huge = await call("marketer", "POST", "/api/admin/posts", {
          kind: "article",
          title: "Too long",
          body: "€".repeat(140_000),
        });
        expect(huge.status).toBe(413);
        expect(huge.body.message).toBe("Request body too large: the limit is 384 KB.");
      },
    );
  });
}
