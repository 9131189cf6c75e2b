import type { Kysely, Selectable, Transaction } from "kysely";
import type { Database, PostRevisionsTable, PostsTable } from "#app/db/schema.ts";
import { BLOG_CATEGORIES, type BlogCategory } from "../content-rules.ts";
import { POST_FIELDS, type PostFields, type PostStatus } from "./post-fields.ts";
import { effectiveStatus } from "./post-status.ts";

// What every part of the posts store shares: rows to objects, the snapshot format of a revision,
// and the write bookkeeping each transaction does (the version counter, a revision row).

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
export type DbOrTrx = Db | Trx;

/** Who made a change: a staff account. Imports have none. */
export type Actor = { id: number; username: string };

/** A post as the back office sees it at a time. */
export type Post = PostFields & {
  id: number;
  /** As readers see it at the time of the read: a scheduled post whose time has come is 'published'. */
  status: PostStatus;
  /** When it was, or will be, published (UTC ISO); null for a draft. */
  publishAt: string | null;
  /** The date readers see; null until first published. */
  firstPublishedAt: string | null;
  revision: number;
  createdAt: string;
  createdBy: number | null;
  updatedAt: string;
  updatedBy: number | null;
  changedAt: string;
  changeVersion: number;
};

export type PostRow = Selectable<PostsTable>;

export function fieldsOf(row: PostRow): PostFields {
  return {
    kind: row.kind,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    body: row.body,
    tags: parseTags(row.tags),
    category: asCategory(row.category),
    author: row.author,
    authorUserId: row.authorUserId === null ? null : Number(row.authorUserId),
    coverImage: row.coverImage,
    coverAlt: row.coverAlt,
    seoTitle: row.seoTitle,
    seoDescription: row.seoDescription,
    outlet: row.outlet,
    originalUrl: row.originalUrl,
    featured: Boolean(row.featured),
    note: row.note,
    readTime: row.readTime === null ? null : Number(row.readTime),
  };
}

export function toPost(row: PostRow, now: Date): Post {
  return {
    id: Number(row.id),
    ...fieldsOf(row),
    status: effectiveStatus(row.status, row.publishAt, now),
    publishAt: row.publishAt,
    firstPublishedAt: row.firstPublishedAt,
    revision: Number(row.revision),
    createdAt: row.createdAt,
    createdBy: row.createdBy === null ? null : Number(row.createdBy),
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy === null ? null : Number(row.updatedBy),
    changedAt: row.changedAt,
    changeVersion: Number(row.changeVersion),
  };
}

/** The columns a save writes, from the fields. */
export function fieldColumns(fields: PostFields) {
  return {
    kind: fields.kind,
    slug: fields.slug,
    title: fields.title,
    excerpt: fields.excerpt,
    body: fields.body,
    tags: JSON.stringify(fields.tags),
    category: fields.category,
    author: fields.author,
    authorUserId: fields.authorUserId,
    coverImage: fields.coverImage,
    coverAlt: fields.coverAlt,
    seoTitle: fields.seoTitle,
    seoDescription: fields.seoDescription,
    outlet: fields.outlet,
    originalUrl: fields.originalUrl,
    featured: fields.featured ? 1 : 0,
    note: fields.note,
    readTime: fields.readTime,
  };
}

export function parseTags(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === "string") : [];
  } catch {
    return [];
  }
}

export function asCategory(value: string): BlogCategory {
  return (BLOG_CATEGORIES as readonly string[]).includes(value)
    ? (value as BlogCategory)
    : "Industry Insights";
}

/** A revision's snapshot: the fields in the editor's order, as JSON. */
export function toSnapshot(fields: PostFields): string {
  return JSON.stringify(Object.fromEntries(POST_FIELDS.map((name) => [name, fields[name]])));
}

/** A snapshot back to fields; a field a later version added takes `fallback`'s value. */
export function fromSnapshot(text: string, fallback: PostFields): PostFields {
  let value: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object") value = parsed as Record<string, unknown>;
  } catch {
    // A damaged snapshot shows as the fallback rather than failing the page.
  }
  const fields = { ...fallback } as Record<string, unknown>;
  for (const name of POST_FIELDS) if (name in value) fields[name] = value[name];
  return fields as PostFields;
}

export function sameFields(a: PostFields, b: PostFields): boolean {
  return toSnapshot(a) === toSnapshot(b);
}

/**
 * Takes the next posts version, under the counter row's lock, first thing in every write
 * transaction. Writers queue on this one row, so versions follow commit order (an instance that saw
 * version N has seen every change up to N) and every write takes its locks in the same order.
 */
export async function takeVersion(trx: Trx, now: Date): Promise<number> {
  const row = await trx
    .updateTable("postsVersion")
    .set((eb) => ({ version: eb("version", "+", 1), changedAt: now.toISOString() }))
    .where("id", "=", 1)
    .returning("version")
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

export type RevisionKind = PostRevisionsTable["kind"];

export async function insertRevision(
  trx: Trx,
  revision: {
    postId: number;
    revision: number;
    kind: RevisionKind;
    restoredFrom?: number | null;
    fields: PostFields;
    actor: Actor | null;
    now: Date;
  },
): Promise<void> {
  await trx
    .insertInto("postRevisions")
    .values({
      postId: revision.postId,
      revision: revision.revision,
      kind: revision.kind,
      restoredFrom: revision.restoredFrom ?? null,
      title: revision.fields.title,
      snapshot: toSnapshot(revision.fields),
      savedAt: revision.now.toISOString(),
      savedBy: revision.actor?.id ?? null,
      savedByUsername: revision.actor?.username ?? null,
    })
    .execute();
}

export async function findPostRow(db: DbOrTrx, id: number): Promise<PostRow | undefined> {
  return db.selectFrom("posts").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The post using `slug` as its address, other than `exceptId`. */
export async function slugOwner(
  db: DbOrTrx,
  slug: string,
  exceptId?: number,
): Promise<{ id: number; title: string } | undefined> {
  let query = db.selectFrom("posts").select(["id", "title"]).where("slug", "=", slug);
  if (exceptId !== undefined) query = query.where("id", "<>", exceptId);
  const row = await query.executeTakeFirst();
  return row ? { id: Number(row.id), title: row.title } : undefined;
}

export const slugTakenMessage = (title: string, free?: string) =>
  `Another post already has this address (“${title}”): choose another${free ? `, such as ${free}` : ""}`;

/**
 * The first of `base`, `base-2`, `base-3`… that no other post uses and no redirect keeps (an old
 * address still sends readers somewhere, so a suggestion never takes it; a person may, deliberately).
 */
export async function freeSlug(
  db: DbOrTrx,
  base: string,
  candidate: (attempt: number) => string,
  /** The post the address is for: its own address is free to it. */
  exceptId?: number,
): Promise<string> {
  const pattern = `${base}-%`;
  // NOTE: slugs hold only [a-z0-9-], so the pattern has no wildcard but its own.
  let postsQuery = db
    .selectFrom("posts")
    .select("slug")
    .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", pattern)]));
  if (exceptId !== undefined) postsQuery = postsQuery.where("id", "<>", exceptId);
  const posts = await postsQuery.execute();
  const redirects = await db
    .selectFrom("postRedirects")
    .select("slug")
    .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", pattern)]))
    .execute();
  const taken = new Set([...posts, ...redirects].map((row) => row.slug));
  for (let attempt = 1; ; attempt++) {
    const slug = candidate(attempt);
    if (!taken.has(slug)) return slug;
  }
}

/** Whether readers have ever been able to see the post (its address is public, so a move needs a redirect). */
export function wasEverVisible(row: Pick<PostRow, "firstPublishedAt">, now: Date): boolean {
  return row.firstPublishedAt !== null && row.firstPublishedAt <= now.toISOString();
}

/**
 * Post `postId` takes back an address it had before: the redirect it left there goes. Another post's
 * old address stays: it keeps sending readers on until the post that took it is visible
 * (findPublicPost), so a draft, or a post scheduled for later, breaks no live link.
 */
export async function takeBackSlug(trx: Trx, slug: string, postId: number): Promise<void> {
  await trx.deleteFrom("postRedirects").where("slug", "=", slug).where("postId", "=", postId).execute();
}

/** Keeps a published post's old address, sending readers to the post (its current address). */
export async function keepOldSlug(trx: Trx, slug: string, postId: number, now: Date): Promise<void> {
  await trx
    .insertInto("postRedirects")
    .values({ slug, postId, createdAt: now.toISOString() })
    .onConflict((conflict) => conflict.column("slug").doUpdateSet({ postId, createdAt: now.toISOString() }))
    .execute();
}

export const statusOf = (row: PostRow, now: Date): PostStatus =>
  effectiveStatus(row.status, row.publishAt, now);
