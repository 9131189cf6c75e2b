import { type Kysely, sql } from "kysely";
import { isPostgres } from "../migration-helpers.ts";

// The back office's search folds accented capitals with unicode_lower(): on SQLite the app registers
// it on every connection (sqlite-adapter.server.ts); PostgreSQL's own lower() already folds every
// letter, so there the function is just that.
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create or replace function unicode_lower(value text) returns text
    language sql immutable parallel safe as $$ select lower(value) $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await sql`drop function if exists unicode_lower(text)`.execute(db);
}
