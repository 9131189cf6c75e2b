import { beforeAll, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { describeEachDatabase } from "../../../../tests/support/databases.ts";
import type { PostImage } from "../posts/post-markdown.ts";
import { publishPost, unpublishPost } from "../posts/post-publishing.server.ts";
import type { Actor } from "../posts/post-rows.server.ts";
import { parsePostCreate, parsePostPatch } from "../posts/post-schema.ts";
import { createPost, updatePost } from "../posts/posts-store.server.ts";
import { createPublishedSite } from "./published-site.server.ts";

// What readers see (issue 24) on SQLite and PostgreSQL, with a clock the test moves: a new
// generation on every change and at the moment a scheduled post comes due (no write then), the
// listing and an article's page from the current generation, old addresses and unpublished posts.

const T0 = new Date("2026-07-01T23:30:00.000Z");
const IMAGE: PostImage = {
  width: 800,
  height: 600,
  alt: "A crane at dusk",
  variants: [{ format: "jpeg", width: 800, height: 600, url: "/media/3/800-0123456789abcdef.jpg" }],
};

describeEachDatabase("the published site", (use) => {
  let actor: Actor;
  beforeAll(async () => {
    const user = await createUser(use().db, {
      username: "site-writer",
      password: "site writer passphrase",
      role: "marketing",
    });
    actor = { id: user.id, username: user.username };
  });

  it("answers from the current generation and moves to a new one on a change or when a scheduled post comes due", async () => {
    let now = T0;
    const site = createPublishedSite({
      db: use().db,
      image: async (id) => (id === 3 ? IMAGE : undefined),
      now: () => now,
      pollMs: 1_000,
    });
    const create = async (title: string, body: string) => {
      const parsed = parsePostCreate({ kind: "article", title, body, excerpt: `${title}.` });
      if (!parsed.success) throw new Error(JSON.stringify(parsed.errors));
      const created = await createPost(use().db, parsed.data, actor, now);
      if (created.kind !== "created") throw new Error(created.kind);
      return created.post;
    };

    const first = await create("Payment notices in July", "Pay **on time**.\n\n![The crane](media:3)");
    expect((await site.listing()).articles.map((article) => article.slug)).not.toContain(first.slug);
    const startGeneration = site.generation();

    expect((await publishPost(use().db, first.id, actor, { now })).kind).toBe("published");
    // Within the poll interval the site answers from what it knows; past it, it checks again.
    now = new Date(T0.getTime() + 1_500);
    const listing = await site.listing();
    expect(site.generation()).toBeGreaterThan(startGeneration);
    const article = listing.articles.find((entry) => entry.slug === first.slug);
    // Published at 23:30 UTC on 1 July: already 00:30 on 2 July in London (BST).
    expect(article).toMatchObject({ date: "2026-07-02", displayDate: "2 July 2026", readTime: 1 });
    const page = await site.article(first.slug);
    expect(page.kind).toBe("article");
    if (page.kind !== "article") return;
    expect(page.page.html).toContain("<strong>on time</strong>");
    expect(page.page.html).toContain('src="/media/3/800-0123456789abcdef.jpg"');
    expect(page.page.html).toContain('width="800" height="600" alt="The crane"');

    // Scheduled for a minute ahead: invisible until then, visible after, with no write in between.
    const second = await create("Retention in August", "Ask for it back.");
    expect(
      (await publishPost(use().db, second.id, actor, { at: new Date(now.getTime() + 60_000), now })).kind,
    ).toBe("scheduled");
    now = new Date(now.getTime() + 1_500);
    expect((await site.article(second.slug)).kind).toBe("none");
    const beforeDue = site.generation();
    now = new Date(now.getTime() + 60_000);
    expect((await site.article(second.slug)).kind).toBe("article");
    expect(site.generation()).toBe(beforeDue + 1);
    expect((await site.listing()).articles.map((entry) => entry.slug)).toContain(second.slug);

    // A new address: the old one moves there. Unpublished: gone at both.
    const patch = parsePostPatch({ revision: first.revision, slug: "payment-notices-explained" });
    if (!patch.success) throw new Error(JSON.stringify(patch.errors));
    const { revision, autosave: _autosave, ...fields } = patch.data;
    expect((await updatePost(use().db, first.id, fields, revision, actor, now)).kind).toBe("saved");
    now = new Date(now.getTime() + 1_500);
    expect(await site.article(first.slug)).toEqual({ kind: "moved", slug: "payment-notices-explained" });
    expect((await unpublishPost(use().db, first.id, actor, { now })).kind).toBe("unpublished");
    now = new Date(now.getTime() + 1_500);
    expect(await site.article("payment-notices-explained")).toEqual({ kind: "gone" });
    expect(await site.article(first.slug)).toEqual({ kind: "gone" });
    expect(await site.article("never-was-here")).toEqual({ kind: "none" });
    expect((await site.listing()).articles.map((entry) => entry.slug)).not.toContain(
      "payment-notices-explained",
    );
  });

  it("shows a change at once after refresh(), even inside the poll interval, with the publish instant", async () => {
    const now = new Date("2026-08-03T10:15:42.000Z");
    const site = createPublishedSite({
      db: use().db,
      image: async () => undefined,
      now: () => now,
      pollMs: 60_000,
    });
    const parsed = parsePostCreate({
      kind: "article",
      title: "Refreshed at once",
      body: "Now.",
      excerpt: "Now.",
    });
    if (!parsed.success) throw new Error(JSON.stringify(parsed.errors));
    const created = await createPost(use().db, parsed.data, actor, now);
    if (created.kind !== "created") throw new Error(created.kind);
    const slugs = async () => (await site.listing()).articles.map((article) => article.slug);
    expect(await slugs()).not.toContain(created.post.slug);

    expect((await publishPost(use().db, created.post.id, actor, { now })).kind).toBe("published");
    // The poll is a minute away: without a check of its own the site still shows what it knew...
    expect(await slugs()).not.toContain(created.post.slug);
    // ...and the instance that made the change checks before it answers.
    const before = site.generation();
    await site.refresh();
    expect(site.generation()).toBe(before + 1);
    const article = (await site.listing()).articles.find((entry) => entry.slug === created.post.slug);
    expect(article).toMatchObject({ publishedAt: "2026-08-03T10:15:42.000Z", date: "2026-08-03" });
    // Nothing changed since: no new generation.
    await site.refresh();
    expect(site.generation()).toBe(before + 1);
  });
});
