import { recordAccess } from "#app/lib/access-log.server.ts";
import type { PostKind } from "./post-fields.ts";
import {
  type Actor,
  type Db,
  fieldsOf,
  findPostRow,
  type Post,
  statusOf,
  takeVersion,
  toPost,
  wasEverVisible,
} from "./post-rows.server.ts";
import { type PostFieldErrors, publishProblems } from "./post-schema.ts";
import {
  inTransaction,
  Outcome,
  type PostSummary,
  postDetail,
  type WriteOptions,
} from "./posts-store.server.ts";

// Publishing (issue 24, ADR 025): now, at a time, or not any more; and what readers see at a time.
// A scheduled post is published for readers from its `publish_at` on, by the reads below comparing
// it with the clock, so no job has to run at that moment and every instance agrees. Publishing
// does not change the post's fields, so it makes no revision and does not move `revision`: an
// editor's open copy stays saveable. Every publish, schedule and unpublish is in the access log.

export type PublishResult =
  /** `changed` false: it already was (published, or scheduled for that very time); nothing logged. */
  | { kind: "published" | "scheduled"; post: Post; changed: boolean }
  | { kind: "not-found" }
  /** What the post still needs, by field. */
  | { kind: "not-ready"; errors: PostFieldErrors }
  | { kind: "refused"; message: string };

export type UnpublishResult =
  | { kind: "unpublished"; post: Post }
  | { kind: "not-found" }
  | { kind: "refused"; message: string };

export const SCHEDULE_LIVE_MESSAGE =
  "This post is already published: unpublish it first if it should appear again later.";
export const NOT_PUBLISHED_MESSAGE = "This post is neither published nor scheduled.";

/**
 * Publishes the post now, or schedules it for `at` when that is in the future (a time in the past
 * means now). Refused while it lacks what readers need (publishProblems). The date readers see is
 * the first publication's: kept when the post was visible before, else the new time.
 */
export async function publishPost(
  db: Db,
  id: number,
  actor: Actor | null,
  { at = null, now = new Date(), clientAddress = null }: WriteOptions & { at?: Date | null } = {},
): Promise<PublishResult> {
  return inTransaction(db, async (trx): Promise<PublishResult> => {
    const version = await takeVersion(trx, now);
    const row = await findPostRow(trx, id);
    if (!row) throw new Outcome<PublishResult>({ kind: "not-found" });
    const problems = publishProblems(fieldsOf(row));
    if (Object.keys(problems).length > 0)
      throw new Outcome<PublishResult>({ kind: "not-ready", errors: problems });
    const current = statusOf(row, now);
    const when = at && at.getTime() > now.getTime() ? at : now;
    const scheduling = when !== now;
    const publishAt = when.toISOString();
    if (scheduling && current === "published")
      throw new Outcome<PublishResult>({ kind: "refused", message: SCHEDULE_LIVE_MESSAGE });
    if (!scheduling && current === "published")
      throw new Outcome<PublishResult>({ kind: "published", post: toPost(row, now), changed: false });
    if (scheduling && current === "scheduled" && row.publishAt === publishAt)
      throw new Outcome<PublishResult>({ kind: "scheduled", post: toPost(row, now), changed: false });
    const updated = await trx
      .updateTable("posts")
      .set({
        status: scheduling ? "scheduled" : "published",
        publishAt,
        firstPublishedAt: wasEverVisible(row, now) ? row.firstPublishedAt : publishAt,
        changedAt: now.toISOString(),
        changeVersion: version,
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    // Live now at an address another post left: that post's redirect has nothing left to do (one
    // scheduled keeps it until its time, when this post's own row takes precedence anyway).
    if (!scheduling)
      await trx.deleteFrom("postRedirects").where("slug", "=", row.slug).where("postId", "<>", id).execute();
    await recordAccess(
      trx,
      {
        action: scheduling ? "post_scheduled" : "post_published",
        actor,
        detail: { ...postDetail(row), at: publishAt },
        clientAddress,
      },
      now,
    );
    return { kind: scheduling ? "scheduled" : "published", post: toPost(updated, now), changed: true };
  });
}

/**
 * Takes a published post off the site ('unpublished': its address answers "gone"), or cancels a
 * schedule (back to a draft, or to 'unpublished' for a post readers saw before).
 */
export async function unpublishPost(
  db: Db,
  id: number,
  actor: Actor | null,
  { now = new Date(), clientAddress = null }: WriteOptions = {},
): Promise<UnpublishResult> {
  return inTransaction(db, async (trx): Promise<UnpublishResult> => {
    const version = await takeVersion(trx, now);
    const row = await findPostRow(trx, id);
    if (!row) throw new Outcome<UnpublishResult>({ kind: "not-found" });
    const current = statusOf(row, now);
    if (current !== "published" && current !== "scheduled")
      throw new Outcome<UnpublishResult>({ kind: "refused", message: NOT_PUBLISHED_MESSAGE });
    const seen = wasEverVisible(row, now);
    const cancelled = current === "scheduled";
    const updated = await trx
      .updateTable("posts")
      .set({
        status: seen ? "unpublished" : "draft",
        // A cancelled schedule leaves no time behind; an unpublished post keeps when it was published.
        publishAt: cancelled ? null : row.publishAt,
        firstPublishedAt: seen ? row.firstPublishedAt : null,
        changedAt: now.toISOString(),
        changeVersion: version,
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAccess(
      trx,
      {
        action: "post_unpublished",
        actor,
        detail: {
          ...postDetail(row),
          ...(cancelled && row.publishAt ? { cancelledSchedule: row.publishAt } : {}),
        },
        clientAddress,
      },
      now,
    );
    return { kind: "unpublished", post: toPost(updated, now) };
  });
}

/** Posts readers see at `at`, newest first (by the date they see, then address). */
export async function listVisiblePosts(
  db: Db,
  at: Date,
  { kind }: { kind?: PostKind } = {},
): Promise<PostSummary[]> {
  const time = at.toISOString();
  let query = db
    .selectFrom("posts")
    .selectAll()
    .where((eb) =>
      eb.or([
        eb("status", "=", "published"),
        eb.and([eb("status", "=", "scheduled"), eb("publishAt", "<=", time)]),
      ]),
    );
  if (kind) query = query.where("kind", "=", kind);
  const rows = await query.orderBy("firstPublishedAt", "desc").orderBy("slug", "asc").execute();
  return rows.map((row) => {
    const { body: _body, ...summary } = toPost(row, at);
    return summary;
  });
}

/** What an address under /blog/ shows at `at`. */
export type PublicLookup =
  /** The post, at this address. */
  | { kind: "post"; post: Post }
  /** An old address of a post readers see: send them to post.slug (301). */
  | { kind: "moved"; post: Post }
  /** A post readers saw and no longer do (unpublished): 410. */
  | { kind: "gone" }
  /** Nothing readers ever saw here (no such post, or a draft): 404. */
  | { kind: "none" };

export async function findPublicPost(db: Db, slug: string, at: Date): Promise<PublicLookup> {
  const row = await db.selectFrom("posts").selectAll().where("slug", "=", slug).executeTakeFirst();
  if (row) {
    if (statusOf(row, at) === "published") return { kind: "post", post: toPost(row, at) };
    if (wasEverVisible(row, at)) return { kind: "gone" };
    // A post readers never saw has this address: another post's old address it took still redirects.
  }
  const redirect = await db
    .selectFrom("postRedirects")
    .innerJoin("posts", "posts.id", "postRedirects.postId")
    .selectAll("posts")
    .where("postRedirects.slug", "=", slug)
    .executeTakeFirst();
  if (!redirect) return { kind: "none" };
  return statusOf(redirect, at) === "published"
    ? { kind: "moved", post: toPost(redirect, at) }
    : { kind: "gone" };
}

/** The next time a scheduled post becomes visible after `at` (UTC ISO), or null when none is scheduled. */
export async function nextScheduledAt(db: Db, at: Date): Promise<string | null> {
  const row = await db
    .selectFrom("posts")
    .select("publishAt")
    .where("status", "=", "scheduled")
    .where("publishAt", ">", at.toISOString())
    .orderBy("publishAt", "asc")
    .limit(1)
    .executeTakeFirst();
  return row?.publishAt ?? null;
}

/** The posts version: it goes up with every write to posts, in commit order (cheap to poll). */
export async function readPostsVersion(db: Db): Promise<{ version: number; changedAt: string }> {
  const row = await db
    .selectFrom("postsVersion")
    .select(["version", "changedAt"])
    .where("id", "=", 1)
    .executeTakeFirstOrThrow();
  return { version: Number(row.version), changedAt: row.changedAt };
}

/**
 * The posts written after version `since` (a deleted draft is simply absent: readers never saw it).
 * An instance that polled version N reloads these and holds version max(changeVersion).
 */
export async function postsChangedSince(
  db: Db,
  since: number,
): Promise<{ id: number; slug: string; changeVersion: number }[]> {
  const rows = await db
    .selectFrom("posts")
    .select(["id", "slug", "changeVersion"])
    .where("changeVersion", ">", since)
    .orderBy("changeVersion", "asc")
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    slug: row.slug,
    changeVersion: Number(row.changeVersion),
  }));
}
