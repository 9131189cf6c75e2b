import { type Kysely, sql } from "kysely";

// Issue 9 points 2 and 3: sign-in failures are counted per (username, address), per address and per
// username, each counter reserved atomically before a password is checked. Keys are HMACs of the
// username and address (no personal data in clear); each counter has its own 15-minute window.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("login_attempts")
    .addColumn("key", "text", (column) => column.primaryKey())
    .addColumn("failures", "integer", (column) => column.notNull())
    // Milliseconds since the epoch: past it, the counter starts afresh.
    .addColumn("window_ends_at", "bigint", (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex("login_attempts_window_idx")
    .on("login_attempts")
    .column("window_ends_at")
    .execute();
  // The sign-in counters that lived among the lead rate limits until now.
  await sql`delete from rate_limits where key like 'login-%'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("login_attempts").execute();
}
