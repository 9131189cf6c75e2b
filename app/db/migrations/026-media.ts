import type { Kysely } from "kysely";
import { autoIncrementId, isPostgres } from "../migration-helpers.ts";

// Issue 24, the content studio's media library (ADR 024). An uploaded image is one `media` row (what
// the original was: its type, size, dimensions after EXIF orientation, the alt text, who uploaded it)
// and its resized, re-encoded variants in `media_variants`, their bytes in the database itself (BLOB
// on SQLite, bytea on PostgreSQL) so every instance of a multi-instance deployment serves every
// image without a shared disk. The uploaded bytes themselves are not kept. A variant's
// `content_hash` (SHA-256 of its bytes) is part of its public URL, so the URL changes whenever the
// bytes do and can be cached for a year. Deleting an image deletes its variants (by key on both
// databases; SQLite also cascades).
// NOTE: numbered 026 on branch i24-media; the posts store (i24-posts) adds its own.
export async function up(db: Kysely<unknown>): Promise<void> {
  await autoIncrementId(db, db.schema.createTable("media"))
    .addColumn("content_hash", "text", (column) => column.notNull())
    .addColumn("mime_type", "text", (column) => column.notNull())
    .addColumn("width", "integer", (column) => column.notNull())
    .addColumn("height", "integer", (column) => column.notNull())
    .addColumn("alt", "text", (column) => column.notNull())
    .addColumn("byte_size", "integer", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("created_by_user_id", "integer")
    .execute();

  await db.schema
    .createTable("media_variants")
    .addColumn("media_id", "integer", (column) => column.notNull().references("media.id").onDelete("cascade"))
    .addColumn("format", "text", (column) => column.notNull())
    .addColumn("width", "integer", (column) => column.notNull())
    .addColumn("height", "integer", (column) => column.notNull())
    .addColumn("content_hash", "text", (column) => column.notNull())
    .addColumn("byte_size", "integer", (column) => column.notNull())
    .addColumn("bytes", isPostgres(db) ? "bytea" : "blob", (column) => column.notNull())
    .addPrimaryKeyConstraint("media_variants_pk", ["media_id", "format", "width"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("media_variants").execute();
  await db.schema.dropTable("media").execute();
}
