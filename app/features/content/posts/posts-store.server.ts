import { sql } from "kysely";
import { recordAccess } from "#app/lib/access-log.server.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import type { PostFields, PostKind, PostStatus } from "./post-fields.ts";
import {
  type Actor,
  type Db,
  type DbOrTrx,
  fieldColumns,
  fieldsOf,
  findPostRow,
  freeSlug,
  fromSnapshot,
  insertRevision,
  keepOldSlug,
  type Post,
  type PostRow,
  sameFields,
  slugOwner,
  slugTakenMessage,
  statusOf,
  type Trx,
  takeBackSlug,
  takeVersion,
  toPost,
  wasEverVisible,
} from "./post-rows.server.ts";
import {
  checkPostFields,
  MESSAGES,
  mediaIdOf,
  newPostFields,
  type PostChanges,
  type PostCreateInput,
  type PostFieldErrors,
  withKindRules,
} from "./post-schema.ts";
import { slugCandidate, suggestSlug } from "./post-slug.ts";

// The content studio's posts (issue 24, ADR 025): create, save with optimistic concurrency,
// autosave, read, list, delete a draft. Functions over Kysely; the caller passes the database, the
// acting staff member and the clock. Every write runs in one transaction that first takes the posts
// version (post-rows.server.ts takeVersion): on PostgreSQL that row lock queues concurrent writers,
// and the save's own `where revision = <the one edited>` refuses a stale one even without it, so two
// saves made on the same revision never both succeed, on either database.

export type { Actor, Post } from "./post-rows.server.ts";

/** A post in lists: everything but the body. */
export type PostSummary = Omit<Post, "body">;

export type CreateResult = { kind: "created"; post: Post } | { kind: "invalid"; errors: PostFieldErrors };

export type SaveResult =
  /** `changed` false: the fields were already so; no revision was made. */
  | { kind: "saved"; post: Post; changed: boolean }
  /**
   * The revision edited is not the latest: nothing was saved. `yours` is the post as this save would
   * have made it (the revision it was made on, with its changes), `latest` the post as it is now.
   */
  | { kind: "conflict"; yours: PostFields; latest: Post; baseRevision: number }
  | { kind: "not-found" }
  | { kind: "invalid"; errors: PostFieldErrors }
  | { kind: "refused"; message: string };

export type DeleteResult = { kind: "deleted" } | { kind: "not-found" } | { kind: "refused"; message: string };

export type WriteOptions = { now?: Date; clientAddress?: string | null };

export const AUTOSAVE_LIVE_MESSAGE =
  "This post is live: save it to change what readers see. Autosave keeps unpublished changes only.";
export const DELETE_REFUSED_MESSAGE =
  "Only a draft that was never published can be deleted: unpublish a published post instead.";

/** Thrown inside a transaction to roll it back and answer `result` instead. */
class Outcome<T> extends Error {
  readonly result: T;
  constructor(result: T) {
    super("outcome");
    this.result = result;
  }
}

async function inTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    if (error instanceof Outcome) return error.result as T;
    throw error;
  }
}

/** Whether the cover names an image the media library has (a /press/ path is a file of the site). */
async function isKnownCover(db: DbOrTrx, coverImage: string | null): Promise<boolean> {
  const id = mediaIdOf(coverImage);
  if (id === null) return true;
  return Boolean(await db.selectFrom("media").select("id").where("id", "=", id).executeTakeFirst());
}

/** A staff account id the post may name as its author (an account that exists). */
async function isKnownUser(db: DbOrTrx, id: number): Promise<boolean> {
  return Boolean(await db.selectFrom("users").select("id").where("id", "=", id).executeTakeFirst());
}

/** The first free address from `base` (itself, else `base-2`, `base-3`…) for post `exceptId`. */
const nextFreeSlug = (db: DbOrTrx, base: string, exceptId?: number) =>
  freeSlug(db, base, (attempt) => slugCandidate(base, attempt), exceptId);

/**
 * Creates a draft. Without a slug one is suggested from the title and made unique (-2, -3…), and so
 * is a slug sent as the title's suggestion (`slugFromTitle`: the editor suggests it as you type); a
 * slug chosen by hand that another post has is refused, naming a free one. Revision 1 ('create')
 * keeps the fields.
 */
export async function createPost(
  db: Db,
  input: PostCreateInput,
  actor: Actor | null,
  now = new Date(),
): Promise<CreateResult> {
  const { slugFromTitle: _fromTitle, ...fieldsInput } = input;
  const draft = newPostFields({ ...fieldsInput, slug: input.slug ?? "" });
  const errors = checkPostFields(draft);
  if (Object.keys(errors).length > 0) return { kind: "invalid", errors };
  if (draft.authorUserId !== null && !(await isKnownUser(db, draft.authorUserId)))
    return { kind: "invalid", errors: { authorUserId: MESSAGES.authorUserId } };
  if (!(await isKnownCover(db, draft.coverImage)))
    return { kind: "invalid", errors: { coverImage: MESSAGES.coverImage } };
  return inTransaction(db, async (trx): Promise<CreateResult> => {
    const version = await takeVersion(trx, now);
    let slug = input.slug;
    if (slug && !input.slugFromTitle) {
      const owner = await slugOwner(trx, slug);
      if (owner)
        throw new Outcome<CreateResult>({
          kind: "invalid",
          errors: { slug: slugTakenMessage(owner.title, await nextFreeSlug(trx, slug)) },
        });
    } else {
      slug = await nextFreeSlug(trx, slug || suggestSlug(draft.title));
    }
    const fields = { ...draft, slug };
    const at = now.toISOString();
    const row = await trx
      .insertInto("posts")
      .values({
        ...fieldColumns(fields),
        status: "draft",
        publishAt: null,
        firstPublishedAt: null,
        revision: 1,
        createdAt: at,
        createdBy: actor?.id ?? null,
        updatedAt: at,
        updatedBy: actor?.id ?? null,
        changedAt: at,
        changeVersion: version,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await insertRevision(trx, { postId: Number(row.id), revision: 1, kind: "create", fields, actor, now });
    return { kind: "created", post: toPost(row, now) };
  });
}

/**
 * Saves changes made on revision `baseRevision`. When that is not the latest, nothing is saved and
 * the answer carries both versions (a conflict). A changed address of a post readers have seen
 * keeps the old one as a redirect; an address another post has is refused.
 */
export function updatePost(
  db: Db,
  id: number,
  changes: PostChanges,
  baseRevision: number,
  actor: Actor | null,
  now = new Date(),
  options: SaveOptions = {},
): Promise<SaveResult> {
  return save(db, id, changes, baseRevision, actor, now, false, options);
}

/**
 * An automatic save while editing: the same check as updatePost, but consecutive autosaves by one
 * person make one revision (the latest replaces the one before), so the list stays readable while
 * no work is lost: every explicit save, and each person's last autosaved state, is kept. Refused for
 * a post readers can see (a live page changes only when someone saves it on purpose).
 */
export function autosavePost(
  db: Db,
  id: number,
  changes: PostChanges,
  baseRevision: number,
  actor: Actor | null,
  now = new Date(),
  options: SaveOptions = {},
): Promise<SaveResult> {
  return save(db, id, changes, baseRevision, actor, now, true, options);
}

export type SaveOptions = {
  /**
   * The slug sent is the title's suggestion, not a choice (the editor suggests it as you type): when
   * another post has it, the post takes the next free one (-2, -3…) instead of being refused.
   */
  slugFromTitle?: boolean;
};

async function save(
  db: Db,
  id: number,
  changes: PostChanges,
  baseRevision: number,
  actor: Actor | null,
  now: Date,
  autosave: boolean,
  { slugFromTitle = false }: SaveOptions,
): Promise<SaveResult> {
  const result = await inTransaction(
    db,
    async (trx): Promise<SaveResult | { kind: "stale"; row: PostRow }> => {
      const version = await takeVersion(trx, now);
      const row = await findPostRow(trx, id);
      if (!row) throw new Outcome<SaveResult>({ kind: "not-found" });
      if (Number(row.revision) !== baseRevision) throw new Outcome({ kind: "stale" as const, row });
      const current = fieldsOf(row);
      const fields = withKindRules({ ...current, ...changes });
      if (slugFromTitle && fields.slug !== current.slug)
        fields.slug = await nextFreeSlug(trx, fields.slug, id);
      const errors = checkPostFields(fields);
      if (Object.keys(errors).length > 0) throw new Outcome<SaveResult>({ kind: "invalid", errors });
      if (autosave && statusOf(row, now) === "published")
        throw new Outcome<SaveResult>({ kind: "refused", message: AUTOSAVE_LIVE_MESSAGE });
      if (sameFields(current, fields))
        throw new Outcome<SaveResult>({ kind: "saved", post: toPost(row, now), changed: false });
      if (fields.slug !== current.slug) {
        const owner = await slugOwner(trx, fields.slug, id);
        if (owner)
          throw new Outcome<SaveResult>({
            kind: "invalid",
            errors: { slug: slugTakenMessage(owner.title, await nextFreeSlug(trx, fields.slug, id)) },
          });
        await takeBackSlug(trx, fields.slug, id);
        if (wasEverVisible(row, now)) await keepOldSlug(trx, current.slug, id, now);
      }
      if (
        fields.authorUserId !== null &&
        fields.authorUserId !== current.authorUserId &&
        !(await isKnownUser(trx, fields.authorUserId))
      )
        throw new Outcome<SaveResult>({ kind: "invalid", errors: { authorUserId: MESSAGES.authorUserId } });
      if (fields.coverImage !== current.coverImage && !(await isKnownCover(trx, fields.coverImage)))
        throw new Outcome<SaveResult>({ kind: "invalid", errors: { coverImage: MESSAGES.coverImage } });
      const revision = baseRevision + 1;
      const updated = await writeFields(trx, id, baseRevision, fields, actor, now, version);
      if (!updated) throw new Outcome({ kind: "stale" as const, row });
      if (autosave && actor) {
        // A run of one person's autosaves keeps only its latest state.
        await trx
          .deleteFrom("postRevisions")
          .where("postId", "=", id)
          .where("revision", "=", baseRevision)
          .where("kind", "=", "autosave")
          .where("savedBy", "=", actor.id)
          .execute();
      }
      await insertRevision(trx, {
        postId: id,
        revision,
        kind: autosave ? "autosave" : "edit",
        fields,
        actor,
        now,
      });
      return { kind: "saved", post: toPost(updated, now), changed: true };
    },
  );
  if (result.kind !== "stale") return result;
  return conflictOf(db, id, changes, baseRevision, now);
}

/** Writes the fields over revision `baseRevision`; undefined when that is no longer the latest. */
export async function writeFields(
  trx: Trx,
  id: number,
  baseRevision: number,
  fields: PostFields,
  actor: Actor | null,
  now: Date,
  version: number,
): Promise<PostRow | undefined> {
  const at = now.toISOString();
  return trx
    .updateTable("posts")
    .set({
      ...fieldColumns(fields),
      revision: baseRevision + 1,
      updatedAt: at,
      updatedBy: actor?.id ?? null,
      changedAt: at,
      changeVersion: version,
    })
    .where("id", "=", id)
    .where("revision", "=", baseRevision)
    .returningAll()
    .executeTakeFirst();
}

/** The two versions of a refused save: the caller's (its revision with its changes) and the latest. */
export async function conflictOf(
  db: Db,
  id: number,
  changes: PostChanges,
  baseRevision: number,
  now: Date,
): Promise<SaveResult> {
  const row = await findPostRow(db, id);
  if (!row) return { kind: "not-found" };
  const latest = fieldsOf(row);
  const base = await db
    .selectFrom("postRevisions")
    .select("snapshot")
    .where("postId", "=", id)
    .where("revision", "=", baseRevision)
    .executeTakeFirst();
  // The revision edited may be gone (a run of autosaves keeps its last): the changes over the latest.
  const edited = base ? fromSnapshot(base.snapshot, latest) : latest;
  return {
    kind: "conflict",
    yours: withKindRules({ ...edited, ...changes }),
    latest: toPost(row, now),
    baseRevision,
  };
}

export async function getPost(db: DbOrTrx, id: number, now = new Date()): Promise<Post | undefined> {
  const row = await findPostRow(db, id);
  return row ? toPost(row, now) : undefined;
}

export async function getPostBySlug(db: DbOrTrx, slug: string, now = new Date()): Promise<Post | undefined> {
  const row = await db.selectFrom("posts").selectAll().where("slug", "=", slug).executeTakeFirst();
  return row ? toPost(row, now) : undefined;
}

export type PostListQuery = {
  /** As readers see it at `now` (a scheduled post whose time has come is 'published'). */
  status?: PostStatus;
  kind?: PostKind;
  /** Words in the title, address, summary or author. */
  q?: string;
  page?: number;
  pageSize?: number;
};

export type PostList = { posts: PostSummary[]; total: number; page: number; pageSize: number };

export const DEFAULT_POSTS_PAGE_SIZE = 50;
export const MAX_POSTS_PAGE_SIZE = 200;

/** `term` as a LIKE pattern matching it anywhere, its own % _ and \ taken literally. */
function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** The back office's list: most recently edited first, filtered, searched and paged. */
export async function listPosts(db: Db, query: PostListQuery = {}, now = new Date()): Promise<PostList> {
  const at = now.toISOString();
  const pageSize = Math.min(Math.max(1, query.pageSize ?? DEFAULT_POSTS_PAGE_SIZE), MAX_POSTS_PAGE_SIZE);
  const page = Math.max(1, query.page ?? 1);
  let filtered = db.selectFrom("posts");
  switch (query.status) {
    case "published":
      filtered = filtered.where((eb) =>
        eb.or([
          eb("status", "=", "published"),
          eb.and([eb("status", "=", "scheduled"), eb("publishAt", "<=", at)]),
        ]),
      );
      break;
    case "scheduled":
      filtered = filtered.where("status", "=", "scheduled").where("publishAt", ">", at);
      break;
    case "draft":
    case "unpublished":
      filtered = filtered.where("status", "=", query.status);
      break;
  }
  if (query.kind) filtered = filtered.where("kind", "=", query.kind);
  const term = query.q?.trim();
  if (term && !breaksTextRule(term, "one-line")) {
    const pattern = containsPattern(term);
    // Accented letters need every letter folded (unicode_lower, migration 005); ASCII does not.
    const fold = /[^\p{ASCII}]/u.test(term) ? sql.raw("unicode_lower") : sql.raw("lower");
    filtered = filtered.where((eb) =>
      eb.or(
        ["title", "slug", "excerpt", "author"].map((column) =>
          eb(sql`${fold}(${sql.ref(column)})`, "like", sql`${pattern} escape '\\'`),
        ),
      ),
    );
  }
  const [{ total }, rows] = await Promise.all([
    filtered.select((eb) => eb.fn.countAll<number | string>().as("total")).executeTakeFirstOrThrow(),
    filtered
      .selectAll()
      .orderBy("updatedAt", "desc")
      .orderBy("id", "desc")
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
  ]);
  return {
    posts: rows.map((row) => {
      const { body: _body, ...summary } = toPost(row, now);
      return summary;
    }),
    total: Number(total),
    page,
    pageSize,
  };
}

/** Deletes a draft that readers never saw (with its revisions). Recorded in the access log. */
export async function deleteDraft(
  db: Db,
  id: number,
  actor: Actor | null,
  { now = new Date(), clientAddress = null }: WriteOptions = {},
): Promise<DeleteResult> {
  return inTransaction(db, async (trx): Promise<DeleteResult> => {
    await takeVersion(trx, now);
    const row = await findPostRow(trx, id);
    if (!row) throw new Outcome<DeleteResult>({ kind: "not-found" });
    if (row.status !== "draft" || row.firstPublishedAt !== null)
      throw new Outcome<DeleteResult>({ kind: "refused", message: DELETE_REFUSED_MESSAGE });
    await trx.deleteFrom("postRevisions").where("postId", "=", id).execute();
    await trx.deleteFrom("postRedirects").where("postId", "=", id).execute();
    await trx.deleteFrom("posts").where("id", "=", id).execute();
    await recordAccess(trx, { action: "post_deleted", actor, detail: postDetail(row), clientAddress }, now);
    return { kind: "deleted" };
  });
}

/** What the access log keeps about a post: its number, address and title (no personal data). */
export function postDetail(row: Pick<PostRow, "id" | "slug" | "title">): Record<string, string | number> {
  return { postId: Number(row.id), slug: row.slug, title: row.title.slice(0, 200) };
}

export { inTransaction, Outcome };
