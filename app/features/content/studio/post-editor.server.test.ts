import { RouterContextProvider } from "react-router";
import { beforeAll, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { clientAddressContext, provideServices } from "#app/lib/service-context.server.ts";
import { describeEachDatabase } from "../../../../tests/support/databases.ts";
import type { MediaServices } from "../media/media-context.server.ts";
import { mediaServicesKey } from "../media/media-context.server.ts";
import type { Actor } from "../posts/post-rows.server.ts";
import { postsServicesKey } from "../posts/posts-context.server.ts";
import { createPostsService, type PostsService } from "../posts/posts-service.server.ts";
import { LONDON_TIME_MESSAGES } from "./london-time.ts";
import { CONFLICT_MESSAGE } from "./post-conflict.ts";
import {
  EDITOR_MESSAGES,
  type EditorActionData,
  loadPostEditor,
  postEditorAction,
} from "./post-editor.server.ts";
import { type EditorValues, EMPTY_VALUES } from "./post-form.ts";

// The editor's form posts (issue 24) on both databases, as a browser without JavaScript sends them
// (the script sends the same form; its autosave goes through the posts API): what each intent
// stores and answers. The posts service is
// the real one; the media library answers that no image exists (these posts have none).

const ORIGIN = "https://studio.example.test";
const NEXT_YEAR = new Date().getUTCFullYear() + 1;

type DataResult = { type: "DataWithResponseInit"; data: EditorActionData; init: { status?: number } | null };

describeEachDatabase("the post editor's form", (use) => {
  let posts: PostsService;
  let mara: Actor;

  beforeAll(async () => {
    const db = use().db;
    posts = createPostsService({ db, secret: "s".repeat(32) });
    const created = await createUser(db, {
      username: "Mara.Okafor",
      password: "editor passphrase 1",
      role: "marketing",
    });
    mara = { id: created.id, username: created.username };
  });

  function context() {
    const db = use().db;
    const provided = new RouterContextProvider();
    provideServices(provided, [
      [
        postsServicesKey,
        {
          posts,
          pageTraffic: async () => new Map(),
          staffAuthors: async () => {
            const rows = await db.selectFrom("users").select(["id", "username"]).execute();
            return rows.map((row) => ({ id: Number(row.id), username: row.username }));
          },
          publicUrl: undefined,
        },
      ],
      [
        mediaServicesKey,
        {
          media: { get: async () => undefined, list: async () => ({ items: [], nextBefore: null }) },
        } as unknown as MediaServices,
      ],
    ]);
    provided.set(clientAddressContext, "203.0.113.9");
    return provided;
  }

  function post(path: string, fields: Partial<EditorValues> & Record<string, string>) {
    return new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
      body: new URLSearchParams({ ...EMPTY_VALUES, ...fields }),
    });
  }

  /** The action's answer: a redirect's address, or the page's data and status. */
  async function send(id: string, fields: Partial<EditorValues> & Record<string, string>) {
    try {
      const result = (await postEditorAction(
        post(`/admin/content/${id}`, fields),
        context(),
        id,
        mara,
      )) as unknown as DataResult;
      return { status: result.init?.status ?? 200, data: result.data, location: null as string | null };
    } catch (thrown) {
      if (thrown instanceof Response && thrown.status === 302)
        return { status: 302, data: undefined, location: thrown.headers.get("location") };
      throw thrown;
    }
  }

  const idFrom = (location: string | null) => Number(/\/admin\/content\/(\d+)/.exec(location ?? "")?.[1]);

  it("creates a draft from the new post's form, its address from the title, its author linked to a colleague", async () => {
    const created = await send("new", {
      intent: "save",
      title: "Interim payments, explained",
      body: "Pay **on time**.",
      author: "mara.okafor",
      tags: "payments, cash flow",
    });
    expect(created).toMatchObject({
      status: 302,
      location: expect.stringMatching(/^\/admin\/content\/\d+\?notice=created$/),
    });
    const stored = await posts.get(idFrom(created.location));
    expect(stored).toMatchObject({
      slug: "interim-payments-explained",
      status: "draft",
      author: "mara.okafor",
      authorUserId: mara.id,
      tags: ["payments", "cash flow"],
      revision: 1,
    });
    // Any other name is the reader's byline only.
    const guest = await send("new", { intent: "save", title: "A guest post", author: "Dr Jane Smith" });
    expect(await posts.get(idFrom(guest.location))).toMatchObject({
      author: "Dr Jane Smith",
      authorUserId: null,
    });
    // The field's own message, and what was typed kept.
    const untitled = await send("new", { intent: "save", title: "", body: "Words without a title" });
    expect(untitled).toMatchObject({
      status: 400,
      data: {
        kind: "invalid",
        errors: { title: "Give the post a title" },
        values: { body: "Words without a title" },
      },
    });
  });

  it("refuses a save made on an older revision with both versions and what differs, saving nothing", async () => {
    const created = await send("new", { intent: "save", title: "Retention", body: "Line one." });
    const id = String(idFrom(created.location));
    expect(
      await send(id, { intent: "save", revision: "1", title: "Retention, theirs", body: "Line one." }),
    ).toMatchObject({
      status: 302,
      location: `/admin/content/${id}?notice=saved`,
    });
    const stale = await send(id, {
      intent: "save",
      revision: "1",
      title: "Retention",
      body: "Line one.\nLine two.",
    });
    expect(stale.status).toBe(409);
    const conflict = stale.data as Extract<EditorActionData, { kind: "conflict" }>;
    expect(conflict).toMatchObject({
      kind: "conflict",
      message: CONFLICT_MESSAGE,
      latestRevision: 2,
      yours: { title: "Retention", body: "Line one.\nLine two." },
      latest: { title: "Retention, theirs", body: "Line one." },
      latestBy: { by: "Mara.Okafor", at: expect.stringMatching(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, /) },
    });
    // From theirs to yours: the title goes back, a line is added.
    expect(conflict.differences.fields.map((change) => [change.field, change.before, change.after])).toEqual([
      ["title", "Retention, theirs", "Retention"],
    ]);
    expect(conflict.differences.body.added).toBe(1);
    expect((await posts.get(Number(id)))?.revision).toBe(2);
    // Saved over theirs on purpose: the latest revision as the base.
    expect(
      await send(id, {
        intent: "overwrite",
        revision: "2",
        title: "Retention",
        body: "Line one.\nLine two.",
      }),
    ).toMatchObject({
      status: 302,
    });
    expect(await posts.get(Number(id))).toMatchObject({ title: "Retention", revision: 3 });
  });

  it("schedules in UK time: summer is BST, winter GMT, the missing hour of March refused before saving", async () => {
    const created = await send("new", {
      intent: "save",
      title: "Scheduled",
      excerpt: "A summary.",
      body: "Text.",
    });
    const id = String(idFrom(created.location));
    const summer = await send(id, {
      intent: "schedule",
      revision: "1",
      title: "Scheduled",
      excerpt: "A summary.",
      body: "Text.",
      publishAt: `${NEXT_YEAR}-07-01T09:00`,
    });
    expect(summer).toMatchObject({ status: 302, location: `/admin/content/${id}?notice=scheduled` });
    expect(await posts.get(Number(id))).toMatchObject({
      status: "scheduled",
      publishAt: `${NEXT_YEAR}-07-01T08:00:00.000Z`,
    });
    await send(id, {
      intent: "schedule",
      revision: "1",
      title: "Scheduled",
      excerpt: "A summary.",
      body: "Text.",
      publishAt: `${NEXT_YEAR}-12-01T09:00`,
    });
    expect((await posts.get(Number(id)))?.publishAt).toBe(`${NEXT_YEAR}-12-01T09:00:00.000Z`);
    // The page shows it back in UK time.
    const page = await loadPostEditor(new Request(`${ORIGIN}/admin/content/${id}`), context(), id);
    expect(page.post?.publishAtText).toBe(`Dec 1, ${NEXT_YEAR}, 9:00 AM GMT`);
    expect(page.scheduleDefault).toBe(`${NEXT_YEAR}-12-01T09:00`);

    // The last Sunday of March: 01:30 does not exist in the UK.
    const march = new Date(Date.UTC(NEXT_YEAR, 2, 31));
    march.setUTCDate(31 - march.getUTCDay());
    const gap = `${march.toISOString().slice(0, 10)}T01:30`;
    const refused = await send(id, {
      intent: "schedule",
      revision: "1",
      title: "Changed title",
      excerpt: "A summary.",
      body: "Text.",
      publishAt: gap,
    });
    expect(refused).toMatchObject({
      status: 400,
      data: { kind: "invalid", errors: { publishAt: LONDON_TIME_MESSAGES.nonexistent } },
    });
    const past = await send(id, {
      intent: "schedule",
      revision: "1",
      title: "Changed title",
      excerpt: "A summary.",
      body: "Text.",
      publishAt: "2020-01-01T09:00",
    });
    expect(past.data).toMatchObject({ errors: { publishAt: EDITOR_MESSAGES.scheduleInPast } });
    expect(await posts.get(Number(id))).toMatchObject({ title: "Scheduled", revision: 1 });
  });

  it("previews what is typed without saving it; publishing a post that lacks a summary says what it needs", async () => {
    const created = await send("new", { intent: "save", title: "Preview me", body: "Saved text." });
    const id = String(idFrom(created.location));
    const preview = await send(id, {
      intent: "preview",
      revision: "1",
      title: "Preview me",
      body: "Typed **text**.",
    });
    expect(preview).toMatchObject({
      status: 200,
      data: { kind: "preview", values: { body: "Typed **text**." } },
    });
    expect((await posts.get(Number(id)))?.body).toBe("Saved text.");

    const publish = await send(id, {
      intent: "publish",
      revision: "1",
      title: "Preview me",
      body: "Saved text.",
    });
    expect(publish.location).toBe(`/admin/content/${id}?notice=not-ready`);
    const page = await loadPostEditor(new Request(`${ORIGIN}${publish.location}`), context(), id);
    expect(page.problems).toEqual({ excerpt: "Write a summary: lists, feeds and search results show it" });
    expect((await posts.get(Number(id)))?.status).toBe("draft");
    const published = await send(id, {
      intent: "publish",
      revision: "1",
      title: "Preview me",
      body: "Saved text.",
      excerpt: "Now with a summary.",
    });
    expect(published.location).toBe(`/admin/content/${id}?notice=published`);
    expect((await posts.get(Number(id)))?.status).toBe("published");
  });

  it("deletes a draft nobody saw, after its confirmation step, and refuses to delete a published post", async () => {
    const created = await send("new", { intent: "save", title: "A draft to throw away" });
    const id = String(idFrom(created.location));
    const asking = await loadPostEditor(new Request(`${ORIGIN}/admin/content/${id}?delete`), context(), id);
    expect(asking).toMatchObject({ deletable: true, confirmDelete: true });
    expect(await send(id, { intent: "delete" })).toMatchObject({
      status: 302,
      location: "/admin/content?notice=deleted",
    });
    expect(await posts.get(Number(id))).toBeUndefined();

    const live = await send("new", { intent: "publish", title: "Live", excerpt: "Read it.", body: "Text." });
    const liveId = String(idFrom(live.location));
    expect(live.location).toBe(`/admin/content/${liveId}?notice=published`);
    expect(
      (await loadPostEditor(new Request(`${ORIGIN}/admin/content/${liveId}?delete`), context(), liveId))
        .deletable,
    ).toBe(false);
    const refused = await send(liveId, { intent: "delete" });
    expect(refused).toMatchObject({ status: 409, data: { kind: "refused" } });
    expect((await posts.get(Number(liveId)))?.status).toBe("published");
  });

  it("answers 404 for a post that does not exist, and starts a new press item when asked", async () => {
    for (const id of ["987654", "abc", "0"])
      await expect(
        loadPostEditor(new Request(`${ORIGIN}/admin/content/${id}`), context(), id),
      ).rejects.toMatchObject({
        init: { status: 404 },
      });
    const press = await loadPostEditor(
      new Request(`${ORIGIN}/admin/content/new?kind=press`),
      context(),
      "new",
    );
    expect(press).toMatchObject({ post: null, values: { kind: "press", title: "" }, preview: null });
  });
});
