import type { Kysely } from "kysely";

// Issue 13: after a person is erased, the one thing kept is that they asked: an HMAC of their
// normalised email under the app secret (not reversible without the secret, and useless for
// anything but recognising that same email), the date and the reason. It lets an integration's
// API key be refused (409) if it sends them again, and lets staff see that a form submission is a
// person returning after erasure (new consent) rather than someone never heard of.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("erasure_suppressions")
    .addColumn("email_hmac", "text", (column) => column.primaryKey())
    .addColumn("erased_at", "text", (column) => column.notNull())
    .addColumn("reason", "text", (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("erasure_suppressions").execute();
}
