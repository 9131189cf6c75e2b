import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { listAccessLog } from "#app/lib/access-log.server.ts";
import { describeEachDatabase } from "../../../../tests/support/databases.ts";
import {
  findPublicPost,
  listVisiblePosts,
  nextScheduledAt,
  postsChangedSince,
  publishPost,
  readPostsVersion,
  unpublishPost,
} from "./post-publishing.server.ts";
import { diffRevisions, getRevision, listRevisions, restoreRevision } from "./post-revisions.server.ts";
import type { Actor } from "./post-rows.server.ts";
import { parsePostCreate, parsePostPatch } from "./post-schema.ts";
import {
  AUTOSAVE_LIVE_MESSAGE,
  autosavePost,
  createPost,
  deleteDraft,
  getPost,
  listPosts,
  type Post,
  updatePost,
} from "./posts-store.server.ts";

// The content studio's store (issue 24) on SQLite and PostgreSQL: what a post and its revisions
// hold after each action, what readers see at a given time, and the refusals. The clock is passed,
// so "later" is a date, not a wait.

const T0 = new Date("2026-12-01T09:00:00.000Z");
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

const ARTICLE_BODY = [
  "Most contracts still live as PDFs.",
  "",
  "## Why it matters",
  "",
  "Notices are missed when nobody can find the clause.",
].join("\n");

function draftInput(title: string, extra: Record<string, unknown> = {}) {
  const parsed = parsePostCreate({ kind: "article", title, body: ARTICLE_BODY, ...extra });
  if (!parsed.success) throw new Error(JSON.stringify(parsed.errors));
  return parsed.data;
}

function changes(body: Record<string, unknown>) {
  const parsed = parsePostPatch({ revision: 1, ...body });
  if (!parsed.success) throw new Error(JSON.stringify(parsed.errors));
  const { revision: _revision, autosave: _autosave, ...fields } = parsed.data;
  return fields;
}

describeEachDatabase("the posts store", (use) => {
  let alice: Actor;
  let bob: Actor;

  beforeAll(async () => {
    const { db } = use();
    const password = "a long enough password";
    alice = await createUser(db, { username: "alice-writer", password, role: "marketing" });
    bob = await createUser(db, { username: "bob-editor", password, role: "admin" });
  });

  async function created(title: string, extra: Record<string, unknown> = {}, now = T0): Promise<Post> {
    const result = await createPost(use().db, draftInput(title, extra), alice, now);
    if (result.kind !== "created") throw new Error(JSON.stringify(result));
    return result.post;
  }

  async function ready(title: string): Promise<Post> {
    return created(title, { excerpt: `What ${title} is about.` });
  }

  describe("creating drafts", () => {
    it("suggests the address from the title and makes it unique with -2, -3", async () => {
      const first = await created("Hidden Costs: NEC4 & JCT — Explained!");
      const second = await created("Hidden costs: NEC4 & JCT, explained");
      const third = await created("Hidden costs — NEC4 and JCT explained");
      expect([first.slug, second.slug, third.slug]).toEqual([
        "hidden-costs-nec4-and-jct-explained",
        "hidden-costs-nec4-and-jct-explained-2",
        "hidden-costs-nec4-and-jct-explained-3",
      ]);
      expect(first).toMatchObject({
        kind: "article",
        title: "Hidden Costs: NEC4 & JCT — Explained!",
        status: "draft",
        revision: 1,
        category: "Industry Insights",
        body: ARTICLE_BODY,
        publishAt: null,
        firstPublishedAt: null,
        createdBy: alice.id,
        createdAt: T0.toISOString(),
      });
      const revisions = await listRevisions(use().db, first.id);
      expect(revisions?.revisions).toMatchObject([
        { revision: 1, kind: "create", savedBy: alice.id, savedByUsername: "alice-writer" },
      ]);
    });

    it("keeps an address given, and refuses one another post has", async () => {
      const post = await created("Retention explained", { slug: "retention-guide" });
      expect(post.slug).toBe("retention-guide");
      const again = await createPost(use().db, draftInput("Another", { slug: "retention-guide" }), alice, T0);
      expect(again).toEqual({
        kind: "invalid",
        errors: {
          slug: "Another post already has this address (“Retention explained”): choose another, such as retention-guide-2",
        },
      });
    });

    it("gives the title's suggestion, sent by the editor, the next free address instead of refusing it", async () => {
      const { db } = use();
      const first = await created("Interim payments, step by step");
      expect(first.slug).toBe("interim-payments-step-by-step");
      // The editor sends the address it suggests as you type, marked as the title's suggestion.
      const second = await createPost(
        db,
        draftInput("Interim payments, step by step", { slug: first.slug, slugFromTitle: true }),
        alice,
        T0,
      );
      expect(second).toMatchObject({ kind: "created", post: { slug: "interim-payments-step-by-step-2" } });
      const third = await created("Interim payments, step by step", {
        slug: first.slug,
        slugFromTitle: true,
      });
      expect(third.slug).toBe("interim-payments-step-by-step-3");
      if (second.kind !== "created") return;
      // Its autosaves go on with the same suggestion: it keeps its own free address...
      const kept = await autosavePost(
        db,
        second.post.id,
        changes({ slug: first.slug, body: "Still typing." }),
        1,
        alice,
        minutes(1),
        { slugFromTitle: true },
      );
      expect(kept).toMatchObject({
        kind: "saved",
        post: { slug: "interim-payments-step-by-step-2", revision: 2 },
      });
      // ...and a new title's free suggestion is taken as it is.
      const saved = await updatePost(
        db,
        second.post.id,
        changes({ title: "Interim payments", slug: "interim-payments" }),
        2,
        alice,
        minutes(3),
        { slugFromTitle: true },
      );
      expect(saved).toMatchObject({
        kind: "saved",
        post: { slug: "interim-payments", title: "Interim payments" },
      });
      // An address chosen by hand is still refused when taken, naming a free one.
      const chosen = await updatePost(
        db,
        third.id,
        changes({ slug: "interim-payments" }),
        1,
        alice,
        minutes(4),
      );
      expect(chosen).toEqual({
        kind: "invalid",
        errors: {
          slug: "Another post already has this address (“Interim payments”): choose another, such as interim-payments-2",
        },
      });
    });

    it("makes a press item's category Press Coverage and keeps its press fields", async () => {
      const result = await createPost(
        use().db,
        draftInput("Clausebridge in Site Ledger", {
          kind: "press",
          body: "",
          category: "Technology",
          outlet: "Site Ledger",
          originalUrl: "https://www.siteledger.co.uk/news/clausebridge",
          featured: true,
          note: "Page 4",
        }),
        alice,
        T0,
      );
      expect(result).toMatchObject({
        kind: "created",
        post: {
          kind: "press",
          category: "Press Coverage",
          outlet: "Site Ledger",
          originalUrl: "https://www.siteledger.co.uk/news/clausebridge",
          featured: true,
          note: "Page 4",
        },
      });
    });

    it("takes a cover the media library has, and refuses one it does not", async () => {
      const { db } = use();
      const image = await db
        .insertInto("media")
        .values({
          contentHash: "a".repeat(64),
          mimeType: "image/jpeg",
          width: 1600,
          height: 900,
          alt: "A tower crane at dusk",
          byteSize: 120_000,
          createdAt: T0.toISOString(),
          createdByUserId: alice.id,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const withCover = await createPost(
        db,
        draftInput("With a cover", { coverImage: Number(image.id) }),
        alice,
        T0,
      );
      expect(withCover).toMatchObject({ kind: "created", post: { coverImage: String(image.id) } });
      const missing = String(Number(image.id) + 1000);
      expect(await createPost(db, draftInput("Dangling cover", { coverImage: missing }), alice, T0)).toEqual({
        kind: "invalid",
        errors: { coverImage: "Choose an image from the media library" },
      });
      if (withCover.kind !== "created") return;
      expect(
        await updatePost(db, withCover.post.id, changes({ coverImage: missing }), 1, alice, minutes(1)),
      ).toEqual({ kind: "invalid", errors: { coverImage: "Choose an image from the media library" } });
    });

    it("refuses Press Coverage for an article, and an author account that does not exist", async () => {
      const { db } = use();
      expect(
        await createPost(db, draftInput("An article", { category: "Press Coverage" }), alice, T0),
      ).toEqual({
        kind: "invalid",
        errors: { category: "Choose a category for the article: Press Coverage is for press items" },
      });
      expect(await createPost(db, draftInput("An article", { authorUserId: 987654 }), alice, T0)).toEqual({
        kind: "invalid",
        errors: { authorUserId: "Choose a staff member as the author" },
      });
      const named = await createPost(
        db,
        draftInput("An article by Bob", { authorUserId: bob.id, author: "Bob E." }),
        alice,
        T0,
      );
      expect(named).toMatchObject({ kind: "created", post: { authorUserId: bob.id, author: "Bob E." } });
    });
  });

  describe("saving", () => {
    it("saves on the latest revision, keeps every save, and says when nothing changed", async () => {
      const { db } = use();
      const post = await created("Seven signs");
      const saved = await updatePost(
        db,
        post.id,
        changes({ title: "Seven signs you need help", tags: "NEC4, jct, nec4" }),
        1,
        bob,
        minutes(1),
      );
      expect(saved).toMatchObject({
        kind: "saved",
        changed: true,
        post: { revision: 2, title: "Seven signs you need help", tags: ["NEC4", "jct"], updatedBy: bob.id },
      });
      // The address stays what it was: a draft's address changes only when someone changes it.
      expect(saved.kind === "saved" && saved.post.slug).toBe("seven-signs");
      const same = await updatePost(
        db,
        post.id,
        changes({ title: "Seven signs you need help" }),
        2,
        bob,
        minutes(2),
      );
      expect(same).toMatchObject({ kind: "saved", changed: false, post: { revision: 2 } });
      const list = await listRevisions(db, post.id);
      expect(list?.current).toBe(2);
      expect(list?.revisions.map((r) => [r.revision, r.kind, r.title, r.savedByUsername])).toEqual([
        [2, "edit", "Seven signs you need help", "bob-editor"],
        [1, "create", "Seven signs", "alice-writer"],
      ]);
    });

    it("refuses a save made on an older revision, with both versions, and saves nothing", async () => {
      const { db } = use();
      const post = await created("Late payment notices");
      const first = await updatePost(
        db,
        post.id,
        changes({ body: `${ARTICLE_BODY}\n\nAlice's paragraph.` }),
        1,
        alice,
        minutes(1),
      );
      expect(first.kind).toBe("saved");
      const stale = await updatePost(
        db,
        post.id,
        changes({ title: "Late payment notices, explained" }),
        1,
        bob,
        minutes(2),
      );
      expect(stale.kind).toBe("conflict");
      if (stale.kind !== "conflict") return;
      expect(stale.baseRevision).toBe(1);
      // Bob's version: revision 1 with his change; the latest: Alice's.
      expect(stale.yours).toMatchObject({ title: "Late payment notices, explained", body: ARTICLE_BODY });
      expect(stale.latest).toMatchObject({
        revision: 2,
        title: "Late payment notices",
        body: `${ARTICLE_BODY}\n\nAlice's paragraph.`,
      });
      expect((await getPost(db, post.id))?.revision).toBe(2);
      expect((await listRevisions(db, post.id))?.revisions).toHaveLength(2);
    });

    it("lets exactly one of several saves made at once on the same revision through", async () => {
      const { db } = use();
      const post = await created("Concurrent editors");
      const editors = [alice, bob, alice, bob, alice];
      const results = await Promise.all(
        editors.map((editor, index) =>
          updatePost(db, post.id, changes({ title: `Title by editor ${index}` }), 1, editor, minutes(1)),
        ),
      );
      const saved = results.filter((result) => result.kind === "saved");
      expect(saved).toHaveLength(1);
      expect(results.filter((result) => result.kind === "conflict")).toHaveLength(editors.length - 1);
      const winner = saved[0]?.kind === "saved" ? saved[0].post.title : "";
      const now = await getPost(db, post.id);
      expect(now).toMatchObject({ revision: 2, title: winner });
      for (const result of results)
        if (result.kind === "conflict") expect(result.latest).toMatchObject({ revision: 2, title: winner });
      expect((await listRevisions(db, post.id))?.revisions.map((r) => r.revision)).toEqual([2, 1]);
    });

    it("changes the address; a published post keeps its old one as a redirect", async () => {
      const { db } = use();
      const draft = await ready("Draft address");
      const moved = await updatePost(
        db,
        draft.id,
        changes({ slug: "draft-address-2026" }),
        1,
        alice,
        minutes(1),
      );
      expect(moved).toMatchObject({ kind: "saved", post: { slug: "draft-address-2026" } });
      // Never seen by readers: no redirect.
      expect(await findPublicPost(db, "draft-address", minutes(2))).toEqual({ kind: "none" });

      const live = await ready("Live address");
      await publishPost(db, live.id, alice, { now: minutes(1) });
      const renamed = await updatePost(
        db,
        live.id,
        changes({ slug: "live-address-renamed" }),
        1,
        alice,
        minutes(2),
      );
      expect(renamed.kind).toBe("saved");
      expect(await findPublicPost(db, "live-address", minutes(3))).toMatchObject({
        kind: "moved",
        post: { id: live.id, slug: "live-address-renamed" },
      });
      expect(await findPublicPost(db, "live-address-renamed", minutes(3))).toMatchObject({
        kind: "post",
        post: { id: live.id },
      });
      // A new post is not offered the old address (it still sends readers on)...
      const similar = await ready("Live address");
      expect(similar.slug).toBe("live-address-2");
      // ...but may take it deliberately. While it is a draft the old address still sends readers on;
      // once it is published, the new post answers there.
      const taken = await updatePost(db, similar.id, changes({ slug: "live-address" }), 1, bob, minutes(4));
      expect(taken.kind).toBe("saved");
      expect(await findPublicPost(db, "live-address", minutes(4))).toMatchObject({
        kind: "moved",
        post: { id: live.id, slug: "live-address-renamed" },
      });
      await publishPost(db, similar.id, bob, { now: minutes(4) });
      expect(await findPublicPost(db, "live-address", minutes(5))).toMatchObject({
        kind: "post",
        post: { id: similar.id },
      });
      // Going back to an old address removes its redirect; the address left becomes one.
      const back = await updatePost(
        db,
        live.id,
        changes({ slug: "live-address-original" }),
        2,
        alice,
        minutes(6),
      );
      expect(back.kind).toBe("saved");
      const kept = await db
        .selectFrom("postRedirects")
        .select("slug")
        .where("postId", "=", live.id)
        .orderBy("slug")
        .execute();
      expect(kept.map((row) => row.slug)).toEqual(["live-address-renamed"]);
      // Taking another post's address is refused.
      const clash = await updatePost(db, live.id, changes({ slug: "live-address" }), 3, alice, minutes(7));
      expect(clash).toEqual({
        kind: "invalid",
        errors: {
          slug: "Another post already has this address (“Live address”): choose another, such as live-address-2",
        },
      });
    });
  });

  describe("autosave", () => {
    it("keeps one revision per run of one person's autosaves, and a new one for the next person", async () => {
      const { db } = use();
      const post = await created("Autosaved draft");
      let revision = 1;
      for (const [index, text] of ["One", "One two", "One two three"].entries()) {
        const result = await autosavePost(
          db,
          post.id,
          changes({ excerpt: text }),
          revision,
          alice,
          minutes(index + 1),
        );
        expect(result).toMatchObject({ kind: "saved", changed: true });
        revision++;
      }
      const bobs = await autosavePost(
        db,
        post.id,
        changes({ excerpt: "Bob's words" }),
        revision,
        bob,
        minutes(5),
      );
      expect(bobs).toMatchObject({ kind: "saved", post: { revision: 5 } });
      const explicit = await updatePost(db, post.id, changes({ excerpt: "Final words" }), 5, bob, minutes(6));
      expect(explicit).toMatchObject({ kind: "saved", post: { revision: 6 } });
      const again = await autosavePost(
        db,
        post.id,
        changes({ excerpt: "After the save" }),
        6,
        bob,
        minutes(7),
      );
      expect(again).toMatchObject({ kind: "saved", post: { revision: 7 } });
      const list = await listRevisions(db, post.id);
      expect(list?.revisions.map((r) => [r.revision, r.kind, r.savedByUsername])).toEqual([
        [7, "autosave", "bob-editor"],
        [6, "edit", "bob-editor"],
        [5, "autosave", "bob-editor"],
        [4, "autosave", "alice-writer"],
        [1, "create", "alice-writer"],
      ]);
      expect((await getRevision(db, post.id, 4))?.fields.excerpt).toBe("One two three");
    });

    it("refuses a stale autosave with both versions, even when the revision edited was collapsed", async () => {
      const { db } = use();
      const post = await created("Two tabs");
      await autosavePost(db, post.id, changes({ excerpt: "Tab one" }), 1, alice, minutes(1));
      await autosavePost(db, post.id, changes({ excerpt: "Tab one, more" }), 2, alice, minutes(2));
      const other = await autosavePost(
        db,
        post.id,
        changes({ title: "Two tabs, renamed" }),
        2,
        alice,
        minutes(3),
      );
      expect(other).toMatchObject({
        kind: "conflict",
        baseRevision: 2,
        yours: { title: "Two tabs, renamed", excerpt: "Tab one, more" },
        latest: { revision: 3, title: "Two tabs", excerpt: "Tab one, more" },
      });
    });

    it("refuses to autosave a live post: a page readers see changes only on purpose", async () => {
      const { db } = use();
      const post = await ready("Live already");
      await publishPost(db, post.id, alice, { now: minutes(1) });
      expect(await autosavePost(db, post.id, changes({ title: "Half-typed" }), 1, alice, minutes(2))).toEqual(
        {
          kind: "refused",
          message: AUTOSAVE_LIVE_MESSAGE,
        },
      );
      expect(
        await updatePost(db, post.id, changes({ title: "Typo fixed" }), 1, alice, minutes(2)),
      ).toMatchObject({
        kind: "saved",
        post: { title: "Typo fixed", status: "published" },
      });
    });
  });

  describe("revisions", () => {
    it("compares two revisions: the fields that differ and the body line by line", async () => {
      const { db } = use();
      const post = await created("Diffed");
      const body = ARTICLE_BODY.replace("Notices are missed", "Notices go unanswered");
      await updatePost(db, post.id, changes({ body, tags: ["NEC4"] }), 1, alice, minutes(1));
      const diff = await diffRevisions(db, post.id, 1, 2);
      expect(diff?.fields).toEqual([{ field: "tags", label: "Tags", before: [], after: ["NEC4"] }]);
      expect(diff?.body).toMatchObject({ complete: true, added: 1, removed: 1 });
      expect(diff?.body.hunks[0]?.lines.filter((line) => line.kind !== "same")).toEqual([
        {
          kind: "removed",
          text: "Notices are missed when nobody can find the clause.",
          oldNumber: 5,
          newNumber: null,
        },
        {
          kind: "added",
          text: "Notices go unanswered when nobody can find the clause.",
          oldNumber: null,
          newNumber: 5,
        },
      ]);
      expect(await diffRevisions(db, post.id, 1, 9)).toBeUndefined();
    });

    it("restores a revision as a new one, keeping the address, and logs it", async () => {
      const { db } = use();
      const post = await ready("Restorable");
      await updatePost(
        db,
        post.id,
        changes({ title: "Restorable, rewritten", body: "Rewritten." }),
        1,
        alice,
        minutes(1),
      );
      await updatePost(db, post.id, changes({ slug: "restorable-new-address" }), 2, alice, minutes(2));
      const restored = await restoreRevision(db, post.id, 1, bob, {
        now: minutes(3),
        clientAddress: "203.0.113.9",
      });
      expect(restored).toMatchObject({
        kind: "restored",
        from: 1,
        changed: true,
        post: { revision: 4, title: "Restorable", body: ARTICLE_BODY, slug: "restorable-new-address" },
      });
      const list = await listRevisions(db, post.id);
      expect(list?.revisions[0]).toMatchObject({
        revision: 4,
        kind: "restore",
        restoredFrom: 1,
        savedByUsername: "bob-editor",
      });
      const log = await listAccessLog(db, { kind: "content" });
      expect(
        log.entries.find((entry) => entry.action === "post_restored" && entry.detail.postId === post.id),
      ).toMatchObject({
        actor: "bob-editor",
        detail: { slug: "restorable-new-address", title: "Restorable", restored: 1, revision: 4 },
        network: "203.0.113.x",
      });
      // Restoring what the post already holds changes nothing.
      expect(await restoreRevision(db, post.id, 4, bob, { now: minutes(4) })).toMatchObject({
        kind: "restored",
        changed: false,
        post: { revision: 4 },
      });
      expect(await restoreRevision(db, post.id, 99, bob, { now: minutes(4) })).toEqual({
        kind: "no-such-revision",
      });
      // A restore decided on an older revision is refused like a save.
      expect(await restoreRevision(db, post.id, 2, bob, { now: minutes(5), baseRevision: 3 })).toMatchObject({
        kind: "conflict",
        baseRevision: 3,
        yours: { title: "Restorable, rewritten" },
        latest: { revision: 4, title: "Restorable" },
      });
      expect(await restoreRevision(db, 987654, 1, bob)).toEqual({ kind: "not-found" });
    });
  });

  describe("publishing", () => {
    it("publishes now, logs it, and keeps the first date when published again", async () => {
      const { db } = use();
      const post = await ready("Published now");
      const result = await publishPost(db, post.id, alice, {
        now: minutes(10),
        clientAddress: "198.51.100.7",
      });
      expect(result).toMatchObject({
        kind: "published",
        changed: true,
        post: {
          status: "published",
          publishAt: minutes(10).toISOString(),
          firstPublishedAt: minutes(10).toISOString(),
          revision: 1,
        },
      });
      expect(await publishPost(db, post.id, alice, { now: minutes(11) })).toMatchObject({
        kind: "published",
        changed: false,
      });
      expect(await unpublishPost(db, post.id, bob, { now: minutes(20) })).toMatchObject({
        kind: "unpublished",
        post: { status: "unpublished", firstPublishedAt: minutes(10).toISOString() },
      });
      expect(await findPublicPost(db, "published-now", minutes(21))).toEqual({ kind: "gone" });
      const again = await publishPost(db, post.id, alice, { now: minutes(30) });
      expect(again).toMatchObject({
        post: {
          status: "published",
          publishAt: minutes(30).toISOString(),
          firstPublishedAt: minutes(10).toISOString(),
        },
      });
      const entries = (await listAccessLog(db, { kind: "content" })).entries.filter(
        (entry) => entry.detail.postId === post.id,
      );
      expect(entries.map((entry) => [entry.action, entry.actor])).toEqual([
        ["post_published", "alice-writer"],
        ["post_unpublished", "bob-editor"],
        ["post_published", "alice-writer"],
      ]);
      // Newest first: the first publication, from the address it was sent from (its network only).
      expect(entries.at(-1)?.network).toBe("198.51.100.x");
    });

    it("schedules for a future time: a draft until then, published from then on, with no job", async () => {
      const { db } = use();
      const post = await ready("Scheduled post");
      const result = await publishPost(db, post.id, alice, { at: minutes(60), now: minutes(1) });
      expect(result).toMatchObject({
        kind: "scheduled",
        post: {
          status: "scheduled",
          publishAt: minutes(60).toISOString(),
          firstPublishedAt: minutes(60).toISOString(),
        },
      });
      const visibleSlugs = async (at: Date) => (await listVisiblePosts(db, at)).map((p) => p.slug);
      expect(await visibleSlugs(minutes(59))).not.toContain("scheduled-post");
      expect(await findPublicPost(db, "scheduled-post", minutes(59))).toEqual({ kind: "none" });
      expect(await nextScheduledAt(db, minutes(59))).toBe(minutes(60).toISOString());
      // The time comes: readers see it, and every read says published.
      expect(await visibleSlugs(minutes(60))).toContain("scheduled-post");
      expect(await getPost(db, post.id, minutes(61))).toMatchObject({ status: "published" });
      expect(await findPublicPost(db, "scheduled-post", minutes(61))).toMatchObject({ kind: "post" });
      expect(await nextScheduledAt(db, minutes(60))).toBeNull();
      const listed = await listPosts(db, { status: "published", q: "scheduled post" }, minutes(61));
      expect(listed.posts.map((p) => p.id)).toEqual([post.id]);
      const beforeTime = await listPosts(db, { status: "scheduled", q: "scheduled post" }, minutes(59));
      expect(beforeTime.posts.map((p) => p.id)).toEqual([post.id]);
      const log = await listAccessLog(db, { kind: "content" });
      expect(log.entries.find((entry) => entry.detail.postId === post.id)).toMatchObject({
        action: "post_scheduled",
        detail: { at: minutes(60).toISOString() },
      });
    });

    it("treats a time in the past as now, moves a schedule, and cancels one back to a draft", async () => {
      const { db } = use();
      const past = await ready("Back-dated");
      expect(await publishPost(db, past.id, alice, { at: minutes(-60), now: minutes(1) })).toMatchObject({
        kind: "published",
        post: { publishAt: minutes(1).toISOString() },
      });
      const later = await ready("Moved schedule");
      await publishPost(db, later.id, alice, { at: minutes(60), now: minutes(1) });
      expect(await publishPost(db, later.id, alice, { at: minutes(60), now: minutes(2) })).toMatchObject({
        kind: "scheduled",
        changed: false,
      });
      expect(await publishPost(db, later.id, alice, { at: minutes(120), now: minutes(3) })).toMatchObject({
        kind: "scheduled",
        post: { publishAt: minutes(120).toISOString(), firstPublishedAt: minutes(120).toISOString() },
      });
      expect(await unpublishPost(db, later.id, alice, { now: minutes(4) })).toMatchObject({
        kind: "unpublished",
        post: { status: "draft", publishAt: null, firstPublishedAt: null },
      });
      const log = await listAccessLog(db, { kind: "content" });
      expect(log.entries.find((entry) => entry.detail.postId === later.id)).toMatchObject({
        action: "post_unpublished",
        detail: { cancelledSchedule: minutes(120).toISOString() },
      });
    });

    it("refuses a post that is not ready, scheduling a live one, and unpublishing a draft", async () => {
      const { db } = use();
      const bare = await created("Bare", { body: "" });
      expect(await publishPost(db, bare.id, alice, { now: T0 })).toEqual({
        kind: "not-ready",
        errors: {
          excerpt: "Write a summary: lists, feeds and search results show it",
          body: "Write the text of the article",
        },
      });
      const press = await created("A press item", {
        kind: "press",
        body: "",
        excerpt: "Coverage",
        coverImage: "/press/site-ledger.svg",
      });
      expect(await publishPost(db, press.id, alice, { now: T0 })).toEqual({
        kind: "not-ready",
        errors: {
          outlet: "Name the publication",
          originalUrl: "Add the address of the original article",
          coverAlt: "Describe the cover image for people who cannot see it",
        },
      });
      const live = await ready("Live one");
      await publishPost(db, live.id, alice, { now: T0 });
      expect(await publishPost(db, live.id, alice, { at: minutes(60), now: minutes(1) })).toMatchObject({
        kind: "refused",
      });
      expect(await unpublishPost(db, bare.id, alice, { now: T0 })).toMatchObject({ kind: "refused" });
      expect(await publishPost(db, 987654, alice)).toEqual({ kind: "not-found" });
    });

    it("lets only a draft readers never saw be deleted, and logs it", async () => {
      const { db } = use();
      const draft = await created("Throwaway");
      await updatePost(db, draft.id, changes({ title: "Throwaway 2" }), 1, alice, minutes(1));
      expect(await deleteDraft(db, draft.id, alice, { now: minutes(2) })).toEqual({ kind: "deleted" });
      expect(await getPost(db, draft.id)).toBeUndefined();
      expect(await listRevisions(db, draft.id)).toBeUndefined();
      const live = await ready("Keeper");
      await publishPost(db, live.id, alice, { now: T0 });
      expect(await deleteDraft(db, live.id, alice)).toMatchObject({ kind: "refused" });
      await unpublishPost(db, live.id, alice, { now: minutes(1) });
      expect(await deleteDraft(db, live.id, alice)).toMatchObject({ kind: "refused" });
      const log = await listAccessLog(db, { kind: "content" });
      expect(log.entries.find((entry) => entry.detail.postId === draft.id)).toMatchObject({
        action: "post_deleted",
        detail: { title: "Throwaway 2" },
      });
    });
  });

  describe("the list and the version instances poll", () => {
    it("filters by status and kind, searches, and pages, newest edit first", async () => {
      const { db } = use();
      const a = await created("Zebra crossing contracts", {}, minutes(100));
      const b = await created("Zebra survey results", { kind: "press", body: "" }, minutes(101));
      const c = await created("Zebra notices", {}, minutes(102));
      const search = await listPosts(db, { q: "ZEBRA" }, minutes(103));
      expect(search.posts.map((p) => p.id)).toEqual([c.id, b.id, a.id]);
      expect(search.total).toBe(3);
      expect(search.posts[0]).not.toHaveProperty("body");
      expect((await listPosts(db, { q: "zebra", kind: "press" })).posts.map((p) => p.id)).toEqual([b.id]);
      const paged = await listPosts(db, { q: "zebra", pageSize: 2, page: 2 }, minutes(103));
      expect(paged).toMatchObject({ total: 3, page: 2, pageSize: 2 });
      expect(paged.posts.map((p) => p.id)).toEqual([a.id]);
      // LIKE's wildcards are taken literally.
      expect((await listPosts(db, { q: "zebra%" })).total).toBe(0);
      expect((await listPosts(db, { status: "draft", q: "zebra" })).total).toBe(3);
      expect((await listPosts(db, { status: "published", q: "zebra" })).total).toBe(0);
    });

    it("goes up with every write, in order, and names the posts changed since a version", async () => {
      const { db } = use();
      const before = await readPostsVersion(db);
      const post = await ready("Versioned");
      await updatePost(db, post.id, changes({ excerpt: "Changed" }), 1, alice, minutes(1));
      await publishPost(db, post.id, alice, { now: minutes(2) });
      const after = await readPostsVersion(db);
      expect(after.version).toBe(before.version + 3);
      expect(after.changedAt).toBe(minutes(2).toISOString());
      const changed = await postsChangedSince(db, before.version);
      expect(changed).toEqual([{ id: post.id, slug: "versioned", changeVersion: after.version }]);
      // A refused save changes nothing, the version included.
      await updatePost(db, post.id, changes({ excerpt: "Stale" }), 1, bob, minutes(3));
      expect((await readPostsVersion(db)).version).toBe(after.version);
    });
  });
});

describe("the posts store's shape", () => {
  it("answers statuses as readers see them, whatever the stored one", async () => {
    const { effectiveStatus } = await import("./post-status.ts");
    expect(
      effectiveStatus("scheduled", "2026-12-01T09:00:00.000Z", new Date("2026-12-01T08:59:59.999Z")),
    ).toBe("scheduled");
    expect(
      effectiveStatus("scheduled", "2026-12-01T09:00:00.000Z", new Date("2026-12-01T09:00:00.000Z")),
    ).toBe("published");
    expect(
      effectiveStatus("unpublished", "2026-12-01T09:00:00.000Z", new Date("2027-01-01T00:00:00.000Z")),
    ).toBe("unpublished");
  });
});
