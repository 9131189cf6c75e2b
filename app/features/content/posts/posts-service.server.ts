import type { PostKind } from "./post-fields.ts";
import { type ImportableContent, importContentFiles } from "./post-import.server.ts";
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
import type { Actor, Db } from "./post-rows.server.ts";
import type { PostChanges, PostCreateInput } from "./post-schema.ts";
import {
  autosavePost,
  createPost,
  deleteDraft,
  getPost,
  getPostBySlug,
  listPosts,
  type PostListQuery,
  type SaveOptions,
  updatePost,
} from "./posts-store.server.ts";
import { createPreviewToken, previewPath, verifyPreviewToken } from "./preview-token.server.ts";

// The content studio's posts as one service (issue 24), bound to the database, the app secret and a
// clock: what the composition root puts into the request context (Services.posts), for the JSON
// API, the editor's pages and the public pages alike. Each method is the store function of the same
// name with `db` and the clock filled in; tests call the store functions directly.

export type PostsServiceOptions = {
  db: Db;
  /** The app secret (signs preview links). */
  secret: string;
  /** Now, for every read and write; tests pass a fixed one. */
  clock?: () => Date;
  /**
   * Awaited after a change readers may see is committed (a publish or schedule, an unpublish, a
   * save, a restore), before the call returns: the composition root refreshes this instance's
   * published pages with it, so its blog, feed and sitemap show the change as the call answers.
   */
  afterChange?: () => Promise<void>;
};

type Client = { clientAddress?: string | null };

/** A change that was written (`changed` false or absent on a refusal means nothing was). */
const wrote = (result: { kind: string; changed?: boolean }, kinds: readonly string[]) =>
  kinds.includes(result.kind) && result.changed !== false;

export function createPostsService({
  db,
  secret,
  clock = () => new Date(),
  afterChange = async () => {},
}: PostsServiceOptions) {
  /** The result, once `afterChange` has run when the call wrote one of `kinds`. */
  async function settled<T extends { kind: string; changed?: boolean }>(
    result: Promise<T>,
    kinds: readonly string[],
  ): Promise<T> {
    const outcome = await result;
    if (wrote(outcome, kinds)) await afterChange();
    return outcome;
  }
  return {
    create: (input: PostCreateInput, actor: Actor | null) => createPost(db, input, actor, clock()),
    update: (
      id: number,
      changes: PostChanges,
      baseRevision: number,
      actor: Actor | null,
      options: SaveOptions = {},
    ) => settled(updatePost(db, id, changes, baseRevision, actor, clock(), options), ["saved"]),
    autosave: (
      id: number,
      changes: PostChanges,
      baseRevision: number,
      actor: Actor | null,
      options: SaveOptions = {},
    ) => autosavePost(db, id, changes, baseRevision, actor, clock(), options),
    get: (id: number) => getPost(db, id, clock()),
    getBySlug: (slug: string) => getPostBySlug(db, slug, clock()),
    list: (query: PostListQuery = {}) => listPosts(db, query, clock()),
    deleteDraft: (id: number, actor: Actor | null, { clientAddress }: Client = {}) =>
      deleteDraft(db, id, actor, { now: clock(), clientAddress }),
    publish: (
      id: number,
      actor: Actor | null,
      { at = null, clientAddress }: Client & { at?: Date | null } = {},
    ) => settled(publishPost(db, id, actor, { at, now: clock(), clientAddress }), ["published", "scheduled"]),
    unpublish: (id: number, actor: Actor | null, { clientAddress }: Client = {}) =>
      settled(unpublishPost(db, id, actor, { now: clock(), clientAddress }), ["unpublished"]),
    listRevisions: (id: number, page: { before?: number; limit?: number } = {}) =>
      listRevisions(db, id, page),
    getRevision: (id: number, revision: number) => getRevision(db, id, revision),
    diffRevisions: (id: number, from: number, to: number) => diffRevisions(db, id, from, to),
    restoreRevision: (
      id: number,
      revision: number,
      actor: Actor | null,
      { clientAddress, baseRevision }: Client & { baseRevision?: number } = {},
    ) =>
      settled(restoreRevision(db, id, revision, actor, { now: clock(), clientAddress, baseRevision }), [
        "restored",
      ]),
    /** A fresh private preview link's path for the post (valid 7 days). */
    previewUrl: (id: number) => previewPath(createPreviewToken(secret, id, clock())),
    /** Which post a preview token opens, if it is genuine and unexpired. */
    verifyPreview: (token: string) => verifyPreviewToken(secret, token, clock()),
    // For the public pages and the instances' refresh (the lead engineer's publishing work):
    listVisible: (at = clock(), options: { kind?: PostKind } = {}) => listVisiblePosts(db, at, options),
    findPublic: (slug: string, at = clock()) => findPublicPost(db, slug, at),
    nextScheduledAt: (at = clock()) => nextScheduledAt(db, at),
    version: () => readPostsVersion(db),
    changedSince: (version: number) => postsChangedSince(db, version),
    /** Imports the files of content/ not imported before (start-up). */
    importContent: (content: ImportableContent) => importContentFiles(db, content, clock()),
  };
}

export type PostsService = ReturnType<typeof createPostsService>;
