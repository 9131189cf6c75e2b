import { type Kysely, sql } from "kysely";
import { autoIncrementId } from "../migration-helpers.ts";

// Issue 24, the content studio: articles and press items live in the database (ADR 025).
//
// - `posts` holds each post as it is now. `revision` goes up by one on every save and is the
//   optimistic-concurrency check: a save names the revision it edited and is refused when that is
//   not the latest. `status` is what staff chose; a 'scheduled' post whose `publish_at` has passed
//   is published for readers without any job flipping it (posts/post-status.ts).
//   `first_published_at` is the date readers see (imported posts keep their frontmatter date).
//   `change_version` and `changed_at` are set by every write: instances poll `posts_version` (one
//   row, its counter taken under the row's lock, so versions follow commit order on both databases)
//   and reload the posts whose `change_version` is newer than the one they hold.
// - `post_revisions`: every save's editable fields as a JSON snapshot, numbered as the post's
//   revision, with who saved it and how (create, edit, autosave, restore of N, import).
// - `post_redirects`: an old address of a published post → the post. A post that takes an address
//   removes the redirect row (the live post wins; posts-store.server.ts).
// - `post_imports`: the files of content/ already imported (once each, even if the post was later
//   renamed or deleted), so start-up imports a file at most once on any number of instances.
// NOTE: numbered 027 on branch i24-posts; 026 is the media library's (branch i24-media).

const KINDS = sql`kind in ('article', 'press')`;
const STATUSES = sql`status in ('draft', 'scheduled', 'published', 'unpublished')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await autoIncrementId(db, db.schema.createTable("posts"))
    .addColumn("kind", "text", (column) => column.notNull().check(KINDS))
    .addColumn("slug", "text", (column) => column.notNull().unique())
    .addColumn("title", "text", (column) => column.notNull())
    .addColumn("excerpt", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("body", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("tags", "text", (column) => column.notNull().defaultTo("[]"))
    .addColumn("category", "text", (column) => column.notNull())
    .addColumn("author", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("author_user_id", "integer", (column) => column.references("users.id").onDelete("set null"))
    .addColumn("cover_image", "text")
    .addColumn("cover_alt", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("seo_title", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("seo_description", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("outlet", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("original_url", "text")
    .addColumn("featured", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("note", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("read_time", "integer")
    .addColumn("status", "text", (column) => column.notNull().defaultTo("draft").check(STATUSES))
    .addColumn("publish_at", "text")
    .addColumn("first_published_at", "text")
    .addColumn("revision", "integer", (column) => column.notNull().defaultTo(1))
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("created_by", "integer", (column) => column.references("users.id").onDelete("set null"))
    .addColumn("updated_at", "text", (column) => column.notNull())
    .addColumn("updated_by", "integer", (column) => column.references("users.id").onDelete("set null"))
    .addColumn("changed_at", "text", (column) => column.notNull())
    .addColumn("change_version", "integer", (column) => column.notNull())
    .execute();
  // What readers see at a time, and the next scheduled publication: status, then publish_at.
  await db.schema
    .createIndex("posts_status_publish_at")
    .on("posts")
    .columns(["status", "publish_at"])
    .execute();
  // The back office's list, most recently edited first.
  await db.schema.createIndex("posts_updated_at").on("posts").columns(["updated_at", "id"]).execute();
  // "What changed since version N", for every instance's poll.
  await db.schema.createIndex("posts_change_version").on("posts").column("change_version").execute();

  await db.schema
    .createTable("posts_version")
    .addColumn("id", "integer", (column) => column.primaryKey().check(sql`id = 1`))
    .addColumn("version", "integer", (column) => column.notNull())
    .addColumn("changed_at", "text", (column) => column.notNull())
    .execute();
  await sql`insert into posts_version (id, version, changed_at) values (1, 0, ${new Date().toISOString()})`.execute(
    db,
  );

  await autoIncrementId(db, db.schema.createTable("post_revisions"))
    .addColumn("post_id", "integer", (column) => column.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("revision", "integer", (column) => column.notNull())
    .addColumn("kind", "text", (column) =>
      column.notNull().check(sql`kind in ('create', 'edit', 'autosave', 'restore', 'import')`),
    )
    .addColumn("restored_from", "integer")
    // The title apart, so the list of revisions never reads the snapshots (a body is up to 100,000 characters).
    .addColumn("title", "text", (column) => column.notNull())
    .addColumn("snapshot", "text", (column) => column.notNull())
    .addColumn("saved_at", "text", (column) => column.notNull())
    .addColumn("saved_by", "integer", (column) => column.references("users.id").onDelete("set null"))
    .addColumn("saved_by_username", "text")
    .addUniqueConstraint("post_revisions_post_revision", ["post_id", "revision"])
    .execute();

  await db.schema
    .createTable("post_redirects")
    .addColumn("slug", "text", (column) => column.primaryKey())
    .addColumn("post_id", "integer", (column) => column.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("post_redirects_post").on("post_redirects").column("post_id").execute();

  await db.schema
    .createTable("post_imports")
    .addColumn("source", "text", (column) => column.primaryKey())
    .addColumn("post_id", "integer")
    .addColumn("imported_at", "text", (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("post_imports").execute();
  await db.schema.dropTable("post_redirects").execute();
  await db.schema.dropTable("post_revisions").execute();
  await db.schema.dropTable("posts_version").execute();
  await db.schema.dropTable("posts").execute();
}
