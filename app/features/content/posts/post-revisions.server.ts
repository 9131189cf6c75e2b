import { recordAccess } from "#app/lib/access-log.server.ts";
import { diffPosts, type PostDiff } from "./post-diff.ts";
import type { PostFields } from "./post-fields.ts";
import {
  type Actor,
  type Db,
  type DbOrTrx,
  fieldsOf,
  findPostRow,
  fromSnapshot,
  insertRevision,
  type Post,
  type RevisionKind,
  sameFields,
  takeVersion,
  toPost,
} from "./post-rows.server.ts";
import { checkPostFields, type PostFieldErrors, withKindRules } from "./post-schema.ts";
import {
  conflictOf,
  inTransaction,
  Outcome,
  postDetail,
  type SaveResult,
  type WriteOptions,
  writeFields,
} from "./posts-store.server.ts";

// A post's revisions (issue 24): every save is kept (a run of one person's autosaves as its last
// state); list them, compare two, restore one. A restore is a save like any other: it makes a new
// revision with the old one's fields, so nothing is lost by restoring, and it is in the access log.
// It keeps the post's current address: moving a live page is a decision of its own, not a side
// effect of going back to earlier words.

export type RevisionSummary = {
  revision: number;
  kind: RevisionKind;
  /** For a restore: the revision it brought back. */
  restoredFrom: number | null;
  title: string;
  savedAt: string;
  savedBy: number | null;
  /** The account's name when it was saved; null for an import. */
  savedByUsername: string | null;
};

export type Revision = RevisionSummary & { fields: PostFields };

export type RevisionList = {
  /** Newest first. */
  revisions: RevisionSummary[];
  /** The post's revision now (the first in the list). */
  current: number;
  /** Pass as `before` for older ones; null at the first. */
  nextBefore: number | null;
};

export const REVISIONS_PAGE_SIZE = 100;

/** The post's revisions, newest first, `limit` at a time; undefined for an unknown post. */
export async function listRevisions(
  db: DbOrTrx,
  postId: number,
  { before, limit = REVISIONS_PAGE_SIZE }: { before?: number; limit?: number } = {},
): Promise<RevisionList | undefined> {
  const post = await db.selectFrom("posts").select("revision").where("id", "=", postId).executeTakeFirst();
  if (!post) return undefined;
  let query = db
    .selectFrom("postRevisions")
    .select(["revision", "kind", "restoredFrom", "title", "savedAt", "savedBy", "savedByUsername"])
    .where("postId", "=", postId);
  if (before !== undefined) query = query.where("revision", "<", before);
  const rows = await query
    .orderBy("revision", "desc")
    .limit(limit + 1)
    .execute();
  const revisions = rows.slice(0, limit).map((row) => ({
    revision: Number(row.revision),
    kind: row.kind,
    restoredFrom: row.restoredFrom === null ? null : Number(row.restoredFrom),
    title: row.title,
    savedAt: row.savedAt,
    savedBy: row.savedBy === null ? null : Number(row.savedBy),
    savedByUsername: row.savedByUsername,
  }));
  return {
    revisions,
    current: Number(post.revision),
    nextBefore: rows.length > limit ? (revisions.at(-1)?.revision ?? null) : null,
  };
}

/** One revision with its fields; undefined when the post or the revision does not exist. */
export async function getRevision(
  db: DbOrTrx,
  postId: number,
  revision: number,
): Promise<Revision | undefined> {
  const post = await findPostRow(db, postId);
  if (!post) return undefined;
  const row = await db
    .selectFrom("postRevisions")
    .selectAll()
    .where("postId", "=", postId)
    .where("revision", "=", revision)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    revision: Number(row.revision),
    kind: row.kind,
    restoredFrom: row.restoredFrom === null ? null : Number(row.restoredFrom),
    title: row.title,
    savedAt: row.savedAt,
    savedBy: row.savedBy === null ? null : Number(row.savedBy),
    savedByUsername: row.savedByUsername,
    fields: fromSnapshot(row.snapshot, fieldsOf(post)),
  };
}

/** What changed from revision `from` to revision `to`; undefined when either does not exist. */
export async function diffRevisions(
  db: DbOrTrx,
  postId: number,
  from: number,
  to: number,
): Promise<(PostDiff & { from: number; to: number }) | undefined> {
  const [before, after] = [await getRevision(db, postId, from), await getRevision(db, postId, to)];
  if (!before || !after) return undefined;
  return { from, to, ...diffPosts(before.fields, after.fields) };
}

export type RestoreResult =
  /** `changed` false: the post already had those fields; no revision was made, nothing logged. */
  | { kind: "restored"; post: Post; from: number; changed: boolean }
  | { kind: "not-found" }
  | { kind: "no-such-revision" }
  | Extract<SaveResult, { kind: "conflict" }>
  | { kind: "invalid"; errors: PostFieldErrors };

/**
 * Makes revision `revision`'s fields the post's again, as a new revision ('restore', naming the one
 * restored), keeping the current address. `baseRevision`, when given, is the revision the person
 * was looking at: a newer one refuses the restore as a conflict, like a save.
 */
export async function restoreRevision(
  db: Db,
  postId: number,
  revision: number,
  actor: Actor | null,
  { now = new Date(), clientAddress = null, baseRevision }: WriteOptions & { baseRevision?: number } = {},
): Promise<RestoreResult> {
  const result = await inTransaction(
    db,
    async (trx): Promise<RestoreResult | { kind: "stale"; fields: PostFields; base: number }> => {
      const version = await takeVersion(trx, now);
      const row = await findPostRow(trx, postId);
      if (!row) throw new Outcome<RestoreResult>({ kind: "not-found" });
      const current = fieldsOf(row);
      const old = await trx
        .selectFrom("postRevisions")
        .select("snapshot")
        .where("postId", "=", postId)
        .where("revision", "=", revision)
        .executeTakeFirst();
      if (!old) throw new Outcome<RestoreResult>({ kind: "no-such-revision" });
      const restored = fromSnapshot(old.snapshot, current);
      let fields = withKindRules({ ...restored, slug: current.slug });
      // An author account that no longer exists is left out rather than failing the restore.
      if (fields.authorUserId !== null) {
        const author = await trx
          .selectFrom("users")
          .select("id")
          .where("id", "=", fields.authorUserId)
          .executeTakeFirst();
        if (!author) fields = { ...fields, authorUserId: null };
      }
      const base = Number(row.revision);
      if (baseRevision !== undefined && baseRevision !== base)
        throw new Outcome({ kind: "stale" as const, fields, base: baseRevision });
      const errors = checkPostFields(fields);
      if (Object.keys(errors).length > 0) throw new Outcome<RestoreResult>({ kind: "invalid", errors });
      if (sameFields(current, fields))
        throw new Outcome<RestoreResult>({
          kind: "restored",
          post: toPost(row, now),
          from: revision,
          changed: false,
        });
      const updated = await writeFields(trx, postId, base, fields, actor, now, version);
      if (!updated) throw new Outcome({ kind: "stale" as const, fields, base });
      await insertRevision(trx, {
        postId,
        revision: base + 1,
        kind: "restore",
        restoredFrom: revision,
        fields,
        actor,
        now,
      });
      await recordAccess(
        trx,
        {
          action: "post_restored",
          actor,
          detail: { ...postDetail(updated), restored: revision, revision: base + 1 },
          clientAddress,
        },
        now,
      );
      return { kind: "restored", post: toPost(updated, now), from: revision, changed: true };
    },
  );
  if (result.kind !== "stale") return result;
  const conflict = await conflictOf(db, postId, result.fields, result.base, now);
  return conflict.kind === "conflict" ? { ...conflict, yours: result.fields } : { kind: "not-found" };
}
