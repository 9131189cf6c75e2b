import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { checkPostgres, createPostgresSchema } from "../support/databases.ts";
import { signIn } from "./support/accounts.ts";
import { launchTestBrowser } from "./support/browser.ts";

// Issue 24, publishing without a build or a restart: what the content studio publishes reaches the
// public pages (the article, /blog, /rss.xml, /sitemap.xml) of every instance within 5 s, a post
// scheduled a few seconds ahead appears on its own, a changed address answers 301 from the old one,
// an unpublished post 410 and leaves the feeds, a preview link shows a draft to anyone holding it
// (never indexed, never cached), and the author's markdown renders inert. On PostgreSQL two
// instances share the database; on SQLite one instance.

const PASSWORD = "publishing passphrase";
const WITHIN_MS = 5_000;

type Json = Record<string, unknown>;

type FeedItem = {
  title: string;
  /** What a reader shows of the description: its text once read as HTML. */
  shown: string;
  /** The elements the description's HTML would draw (none, for a summary). */
  elements: string[];
  link: string;
  pubDate: string;
};

/**
 * The feed's items as a reader takes them, in Chromium: the document parsed as XML, then each
 * `<description>` parsed as the HTML it is (RSS 2.0), a `<title>` kept as text.
 */
async function readFeed(browser: Browser, xml: string): Promise<FeedItem[]> {
  const page = await browser.newPage();
  try {
    return await page.evaluate((text) => {
      const feed = new DOMParser().parseFromString(text, "application/xml");
      if (feed.querySelector("parsererror")) throw new Error("The feed is not well-formed XML");
      return [...feed.querySelectorAll("channel > item")].map((item) => {
        const field = (name: string) => item.querySelector(name)?.textContent ?? "";
        const html = new DOMParser().parseFromString(field("description"), "text/html");
        return {
          title: field("title"),
          shown: html.body.textContent ?? "",
          elements: [...html.body.querySelectorAll("*")].map((element) => element.outerHTML),
          link: field("link"),
          pubDate: field("pubDate"),
        };
      });
    }, xml);
  } finally {
    await page.close();
  }
}

/** Polls `path` on `server` until `accept` holds; resolves how long it took (ms), or throws past `limit`. */
async function waitFor(
  server: RunningServer,
  path: string,
  accept: (response: Response, body: string) => boolean,
  limit = WITHIN_MS,
  since = Date.now(),
): Promise<number> {
  for (;;) {
    const response = await fetch(`${server.url}${path}`, { redirect: "manual" });
    const body = await response.text();
    if (accept(response, body)) return Date.now() - since;
    if (Date.now() - since > limit)
      throw new Error(`${path} on ${server.url}: still ${response.status} after ${Date.now() - since} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`publishing from the content studio [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    const servers: RunningServer[] = [];
    let database: AppDatabase;
    let drop: () => Promise<void> = async () => {};
    let cookie = "";

    beforeAll(async () => {
      if (!available) return;
      let databaseUrl: string;
      if (kind === "postgres") {
        const schema = await createPostgresSchema();
        databaseUrl = schema.url;
        drop = schema.drop;
      } else {
        const dir = mkdtempSync(join(tmpdir(), "publishing-"));
        databaseUrl = join(dir, "publishing.sqlite");
        drop = async () => rmSync(dir, { recursive: true, force: true });
      }
      const env = { DATABASE_URL: databaseUrl, LOG_LEVEL: "error" };
      servers.push(await startServer(env));
      // A second instance on the same database (PostgreSQL: what several app instances are).
      if (kind === "postgres") servers.push(await startServer(env));
      database = openDatabase(databaseUrl, { poolSize: 2 });
      await createUser(database.db, { username: "pub-marketer", password: PASSWORD, role: "marketing" });
      cookie = await signIn(servers[0]?.url ?? "", "pub-marketer", PASSWORD);
    }, 120_000);

    afterAll(async () => {
      await Promise.all(servers.map((server) => server.stop()));
      await database?.close();
      await drop();
    });

    async function api(
      method: string,
      path: string,
      body?: unknown,
    ): Promise<{ status: number; body: Json }> {
      const response = await fetch(`${servers[0]?.url}${path}`, {
        method,
        headers: { Cookie: cookie, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
    }

    it.skipIf(!available)(
      "publishes to every instance within 5 s, renders the author's markdown inert, moves and unpublishes",
      async () => {
        const created = await api("POST", "/api/admin/posts", {
          kind: "article",
          title: "Notices that decide a final account",
          excerpt: "Late notices cost more than late work.",
          body: [
            "## The clock starts early",
            "",
            "Read [the NEC guidance](https://www.example.com/nec) and [our features](/features).",
            "",
            '<script>alert("owned")</script>',
            "",
            '<iframe src="https://evil.example"></iframe> [click](javascript:alert(1)) ![x](https://evil.example/p.gif)',
          ].join("\n"),
        });
        expect(created.status).toBe(201);
        const id = created.body.id as number;
        const slug = created.body.slug as string;
        expect(slug).toBe("notices-that-decide-a-final-account");
        // A draft is nowhere public.
        for (const server of servers) expect((await fetch(`${server.url}/blog/${slug}`)).status).toBe(404);

        expect((await api("POST", `/api/admin/posts/${id}/publish`, {})).status).toBe(200);
        // From the studio's answer: the 5 s are the other instances' to notice and render, not the
        // publish request's own time on a busy machine.
        const published = Date.now();
        // Every instance asked at once, as each one's readers would.
        const took = await Promise.all(
          servers.map((server) =>
            waitFor(server, `/blog/${slug}`, (response) => response.status === 200, WITHIN_MS, published),
          ),
        );
        for (const ms of took) expect(ms).toBeLessThanOrEqual(WITHIN_MS);
        for (const server of servers) {
          const page = await fetch(`${server.url}/blog/${slug}`);
          const html = await page.text();
          expect(html).toContain("Notices that decide a final account</h1>");
          expect(html).toContain("<h2>The clock starts early</h2>");
          expect(html).toContain('<a href="https://www.example.com/nec" rel="noopener">the NEC guidance</a>');
          expect(html).toContain('<a href="/features">our features</a>');
          // Raw HTML as text; no javascript: link; no image from another site.
          expect(html).toContain("&lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt;");
          expect(html).not.toContain('<script>alert("owned")');
          expect(html).not.toContain("<iframe");
          expect(html).not.toMatch(/href="javascript:/i);
          expect(html).not.toMatch(/<(?:img|source|iframe)[^>]*evil\.example/);
          // Served like a prerendered page: a CSP allowing its scripts by hash, an ETag, 304.
          expect(page.headers.get("content-security-policy")).toMatch(/script-src 'self' 'sha256-/);
          expect(page.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
          const etag = page.headers.get("etag") ?? "";
          expect(etag).not.toBe("");
          const again = await fetch(`${server.url}/blog/${slug}`, { headers: { "If-None-Match": etag } });
          expect(again.status).toBe(304);
          await again.arrayBuffer();
          // The list, the feed and the sitemap carry it too.
          await waitFor(server, "/blog", (_, body) => body.includes(`href="/blog/${slug}"`));
          await waitFor(server, "/rss.xml", (_, body) => body.includes(`/blog/${slug}</link>`));
          await waitFor(server, "/sitemap.xml", (_, body) => body.includes(`/blog/${slug}</loc>`));
          // Never kept by a cache past a publish; an unchanged feed or sitemap costs a 304.
          for (const path of ["/rss.xml", "/sitemap.xml"]) {
            const fresh = await fetch(`${server.url}${path}`);
            await fresh.arrayBuffer();
            expect(fresh.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
            const unchanged = await fetch(`${server.url}${path}`, {
              headers: { "If-None-Match": fresh.headers.get("etag") ?? "" },
            });
            expect(unchanged.status).toBe(304);
            await unchanged.arrayBuffer();
          }
        }

        // Older articles go to /blog/page/2 and on (24 a page): with these few there is no page 2.
        const first = await fetch(`${servers[0]?.url}/blog/page/1`, { redirect: "manual" });
        expect([first.status, first.headers.get("location")]).toEqual([301, "/blog"]);
        expect((await fetch(`${servers[0]?.url}/blog/page/2`)).status).toBe(404);

        // A new address: the old one answers 301 to it on every instance.
        const post = await api("GET", `/api/admin/posts/${id}`);
        const moved = await api("PATCH", `/api/admin/posts/${id}`, {
          revision: post.body.revision,
          slug: "notices-and-the-final-account",
        });
        expect(moved.status).toBe(200);
        for (const server of servers) {
          await waitFor(server, `/blog/${slug}`, (response) => response.status === 301);
          const redirect = await fetch(`${server.url}/blog/${slug}`, { redirect: "manual" });
          expect(redirect.headers.get("location")).toBe("/blog/notices-and-the-final-account");
          await redirect.arrayBuffer();
          await waitFor(server, "/blog/notices-and-the-final-account", (response) => response.status === 200);
        }

        // Unpublished: gone (410) at both addresses, and out of the list, the feed and the sitemap.
        expect((await api("POST", `/api/admin/posts/${id}/unpublish`, {})).status).toBe(200);
        for (const server of servers) {
          await waitFor(server, "/blog/notices-and-the-final-account", (response) => response.status === 410);
          expect((await fetch(`${server.url}/blog/${slug}`)).status).toBe(410);
          await waitFor(server, "/blog", (_, body) => !body.includes("notices-and-the-final-account"));
          await waitFor(server, "/rss.xml", (_, body) => !body.includes("notices-and-the-final-account"));
          await waitFor(server, "/sitemap.xml", (_, body) => !body.includes("notices-and-the-final-account"));
        }
      },
      120_000,
    );

    it.skipIf(!available)(
      "lists a post on the answering instance as its publish call returns; the feed shows its words as text, dated to the instant",
      async () => {
        const server = servers[0] as RunningServer;
        const title = `Fees & "extras" <img src=x onerror=alert(1)> [${kind}]`;
        const excerpt =
          "What <b>counts</b> as a variation: <img src=x onerror=alert(2)> & <script>alert(3)</script>";
        const created = await api("POST", "/api/admin/posts", {
          kind: "article",
          title,
          excerpt,
          body: "Variations are priced before the work.",
        });
        expect(created.status).toBe(201);
        const id = created.body.id as number;
        const slug = created.body.slug as string;
        // This instance has just checked and kept its pages: without a check of its own after the
        // publish it would serve them until its next poll.
        for (const path of ["/blog", "/rss.xml", "/sitemap.xml"]) {
          const before = await fetch(`${server.url}${path}`);
          expect(before.status).toBe(200);
          expect(await before.text()).not.toContain(`/blog/${slug}<`);
        }

        const calledAt = Date.now();
        expect((await api("POST", `/api/admin/posts/${id}/publish`, {})).status).toBe(200);
        const answeredAt = Date.now();
        // At once, with no wait, on the instance that answered.
        const [blog = "", rss = "", sitemap = ""] = await Promise.all(
          ["/blog", "/rss.xml", "/sitemap.xml"].map(async (path) => {
            const response = await fetch(`${server.url}${path}`);
            expect(response.status).toBe(200);
            return response.text();
          }),
        );
        expect(blog).toContain(`href="/blog/${slug}"`);
        expect(rss).toContain(`/blog/${slug}</link>`);
        expect(sitemap).toContain(`/blog/${slug}</loc>`);

        // A reader shows the author's words, not markup: no element in the description.
        const browser = await launchTestBrowser();
        try {
          const item = (await readFeed(browser, rss)).find((entry) => entry.link.endsWith(`/blog/${slug}`));
          expect(item).toMatchObject({ title, shown: excerpt, elements: [] });
          // pubDate is the publish instant (RFC 822, to the second), not the day's midnight.
          const published = Date.parse(item?.pubDate ?? "");
          expect(item?.pubDate).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
          expect(published).toBeGreaterThanOrEqual(Math.floor(calledAt / 1000) * 1000);
          expect(published).toBeLessThanOrEqual(answeredAt);
        } finally {
          await browser.close();
        }
        // The sitemap's lastmod: the same instant, to the second.
        const lastmod = new RegExp(`/blog/${slug}</loc><lastmod>([^<]+)</lastmod>`).exec(sitemap)?.[1] ?? "";
        expect(lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(Date.parse(lastmod)).toBeGreaterThanOrEqual(Math.floor(calledAt / 1000) * 1000);
        expect(Date.parse(lastmod)).toBeLessThanOrEqual(answeredAt);

        // Unpublished: gone from the answering instance's list, feed and sitemap as the call returns.
        expect((await api("POST", `/api/admin/posts/${id}/unpublish`, {})).status).toBe(200);
        for (const path of ["/blog", "/rss.xml", "/sitemap.xml"])
          expect(await (await fetch(`${server.url}${path}`)).text()).not.toContain(`/blog/${slug}`);
      },
      60_000,
    );

    it.skipIf(!available)(
      "shows a post scheduled a few seconds ahead on its own, and previews a draft to anyone with the link",
      async () => {
        const created = await api("POST", "/api/admin/posts", {
          kind: "article",
          title: "Retention release dates, tracked",
          excerpt: "Every release date in one place.",
          body: "Retention is money you already earned.",
        });
        expect(created.status).toBe(201);
        const id = created.body.id as number;
        const slug = created.body.slug as string;

        // The preview link: no sign-in, never indexed or cached; a forged one opens nothing.
        const previewUrl = created.body.previewUrl as string;
        const preview = await fetch(`${servers.at(-1)?.url}${previewUrl}`);
        expect(preview.status).toBe(200);
        expect(preview.headers.get("x-robots-tag")).toBe("noindex, nofollow");
        expect(preview.headers.get("cache-control")).toBe("private, no-store");
        const previewHtml = (await preview.text()).replaceAll("<!-- -->", "");
        expect(previewHtml).toContain("Retention release dates, tracked</h1>");
        expect(previewHtml).toContain("This post is a draft");
        expect(previewHtml).toMatch(/<meta name="robots" content="noindex/);
        const forged = `${previewUrl.slice(0, -2)}${previewUrl.endsWith("AA") ? "BB" : "AA"}`;
        expect((await fetch(`${servers[0]?.url}${forged}`)).status).toBe(404);

        const at = new Date(Date.now() + 3_000);
        const scheduled = await api("POST", `/api/admin/posts/${id}/publish`, { at: at.toISOString() });
        expect(scheduled.status).toBe(200);
        expect(scheduled.body.status).toBe("scheduled");
        for (const server of servers) expect((await fetch(`${server.url}/blog/${slug}`)).status).toBe(404);
        // Nothing is written when its time comes: each instance sees the moment pass.
        // Every instance asked at once, as each one's readers would.
        const took = await Promise.all(
          servers.map((server) =>
            waitFor(server, `/blog/${slug}`, (response) => response.status === 200, WITHIN_MS, at.getTime()),
          ),
        );
        for (const ms of took) expect(ms).toBeLessThanOrEqual(WITHIN_MS);
        for (const server of servers) {
          await waitFor(
            server,
            "/rss.xml",
            (_, body) => body.includes(`/blog/${slug}</link>`),
            WITHIN_MS,
            at.getTime(),
          );
        }
      },
      60_000,
    );
  });
}
