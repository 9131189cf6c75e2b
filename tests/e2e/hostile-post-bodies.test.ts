import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { checkPostgres, createPostgresSchema } from "../support/databases.ts";
import { signIn } from "./support/accounts.ts";

// Issue 24, review: a post body within the 100,000-character limit that marked lays out in seconds
// (`_a` repeated) or not at all (100,000 `>` overflow its stack). Rendered on the event loop, the
// first stalled every request of the server for 6-10 s each time anyone opened its preview link (no
// sign-in needed); the second answered 500 on its public page, its preview link and even its editor,
// so the marketer could not open the post to fix it. Now bodies render in a worker thread within a
// budget, and one that fails is shown as plain paragraphs. On both databases (issue 32).

const PASSWORD = "hostile bodies passphrase";
const SLOW_BODY = "_a".repeat(49_999);
const DEEP_BODY = ">".repeat(99_000);
/** Each `![` sent the search for the body's images, and the word count, to the end of the text: 10-24 s. */
const OPEN_IMAGES_BODY = "![".repeat(49_999);

for (const kind of ["sqlite", "postgres"] as const)
  describe(`hostile post bodies [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    let server: RunningServer;
    let dir: string | undefined;
    let dropSchema: (() => Promise<void>) | undefined;
    let cookie = "";

    beforeAll(async () => {
      if (!available) return;
      let databaseUrl: string;
      if (kind === "sqlite") {
        dir = mkdtempSync(join(tmpdir(), "hostile-bodies-"));
        databaseUrl = join(dir, "app.sqlite");
      } else {
        const schema = await createPostgresSchema();
        dropSchema = schema.drop;
        databaseUrl = schema.url;
      }
      server = await startServer({
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: "error",
        ADMIN_USERNAME: "hb-admin",
        ADMIN_PASSWORD: PASSWORD,
      });
      const database = openDatabase(databaseUrl, { poolSize: 1 });
      try {
        await createUser(database.db, { username: "hb-marketer", password: PASSWORD, role: "marketing" });
      } finally {
        await database.close();
      }
      cookie = await signIn(server.url, "hb-marketer", PASSWORD);
    }, 90_000);

    afterAll(async () => {
      await server?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
      await dropSchema?.();
    });

    async function createPost(title: string, body: string): Promise<{ id: number; previewUrl: string }> {
      const response = await fetch(`${server.url}/api/admin/posts`, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/json", Origin: server.url },
        body: JSON.stringify({ title, kind: "article", body, excerpt: "A hostile body." }),
      });
      expect(response.status).toBe(201);
      return (await response.json()) as { id: number; previewUrl: string };
    }

    /** The slowest answer to a cheap page, asked for every 50 ms while `work` runs. */
    async function slowestWhile(work: Promise<unknown>): Promise<number> {
      let done = false;
      let slowest = 0;
      const probing = (async () => {
        while (!done) {
          const started = performance.now();
          await (await fetch(`${server.url}/robots.txt`)).text();
          slowest = Math.max(slowest, performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      await work.finally(() => {
        done = true;
      });
      await probing;
      return slowest;
    }

    it.skipIf(!available)(
      "opens the preview link of a slow body without stalling other requests",
      async () => {
        const post = await createPost("Slow body", SLOW_BODY);
        const preview = fetch(`${server.url}${post.previewUrl}`).then(async (response) => ({
          status: response.status,
          html: await response.text(),
        }));
        // Before: 6-10 s during which robots.txt waited too (the budget is 3 s, in the worker). The bound
        // is loose for a loaded machine.
        const slowest = await slowestWhile(preview);
        const page = await preview;
        expect(page.status).toBe(200);
        expect(page.html).toContain("_a_a_a_a");
        expect(slowest).toBeLessThan(4_000);
        // Asked again, it is known to fail and not laid out again.
        const started = performance.now();
        const again = await fetch(`${server.url}${post.previewUrl}`);
        expect(again.status).toBe(200);
        await again.text();
        expect(performance.now() - started).toBeLessThan(1_500);
      },
      90_000,
    );

    it.skipIf(!available)(
      "opens the preview link of a body of unclosed images without stalling other requests",
      async () => {
        const post = await createPost("Unclosed images", OPEN_IMAGES_BODY);
        const preview = fetch(`${server.url}${post.previewUrl}`).then((response) => response.status);
        const slowest = await slowestWhile(preview);
        expect(await preview).toBe(200);
        expect(slowest).toBeLessThan(4_000);
        const editor = await fetch(`${server.url}/admin/content/${post.id}`, { headers: { Cookie: cookie } });
        expect(editor.status).toBe(200);
      },
      90_000,
    );

    it.skipIf(!available)(
      "shows a body nested too deeply on its page, its preview link and its editor",
      async () => {
        const post = await createPost("Deep body", DEEP_BODY);
        const published = await fetch(`${server.url}/api/admin/posts/${post.id}/publish`, {
          method: "POST",
          headers: { Cookie: cookie, Origin: server.url },
        });
        expect(published.status).toBe(200);

        const preview = await fetch(`${server.url}${post.previewUrl}`);
        expect(preview.status).toBe(200);
        expect(await preview.text()).toContain("&gt;&gt;&gt;&gt;");

        const editor = await fetch(`${server.url}/admin/content/${post.id}`, { headers: { Cookie: cookie } });
        expect(editor.status).toBe(200);
        expect(await editor.text()).toContain("The preview cannot lay out this text");

        // Published: on its page within the 1 s the site takes to see a change.
        await expect
          .poll(async () => (await fetch(`${server.url}/blog/deep-body`)).status, { timeout: 30_000 })
          .toBe(200);
        expect(await (await fetch(`${server.url}/blog/deep-body`)).text()).toContain("&gt;&gt;&gt;&gt;");
      },
      90_000,
    );
  });
