import { type Kysely, sql } from "kysely";
import { autoIncrementId, isPostgres } from "../migration-helpers.ts";

// Issue 10, the lead workspace: who a prospect is (leads grouped by normalised email), who owns a
// lead, where it came from (form, API, an API key), how suspicious it looked (a scored verdict
// instead of a yes/no flag), notes, a timeline, API keys for integrations and a sliding-window rate
// limit. Existing leads are brought along: keys backfilled, and the leads the old time trap hid as
// spam released into the list (a missing or young time token alone no longer hides a lead).
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  // SQLite's lower() folds A-Z only; the app registers unicode_lower() on every SQLite connection
  // and migration 005 created it on PostgreSQL.
  const fold = sql.raw("unicode_lower");

  await db.schema
    .alterTable("leads")
    .addColumn("email_key", "text", (column) => column.notNull().defaultTo(""))
    .execute();
  for (const [name, type] of [
    ["full_name_key", "text"],
    ["company_key", "text"],
  ] as const) {
    await db.schema
      .alterTable("leads")
      .addColumn(name, type, (column) => column.notNull().defaultTo(""))
      .execute();
  }
  await db.schema
    .alterTable("leads")
    .addColumn("source", "text", (column) => column.notNull().defaultTo("form"))
    .execute();
  await db.schema.alterTable("leads").addColumn("api_key_id", "integer").execute();
  // No foreign key: SQLite cannot drop a column that has one (migration down), and staff accounts
  // are disabled, never deleted, so an owner always exists; the app checks the id it is given.
  await db.schema.alterTable("leads").addColumn("owner_id", "integer").execute();
  await db.schema
    .alterTable("leads")
    .addColumn("spam_score", "integer", (column) => column.notNull().defaultTo(0))
    .execute();
  // JSON: [{ signal, points, detail }]; null when no signal fired.
  await db.schema.alterTable("leads").addColumn("spam_signals", "text").execute();
  // When staff last judged the lead by hand ("Spam" / "Not spam"): its signals no longer ask for review.
  await db.schema.alterTable("leads").addColumn("spam_reviewed_at", "text").execute();
  // Milliseconds from submission to the first status change: the dashboard's "speed to lead".
  await db.schema.alterTable("leads").addColumn("first_response_ms", "bigint").execute();

  await sql`update leads set
      email_key = lower(trim(email)),
      full_name_key = ${fold}(full_name),
      company_key = ${fold}(company),
      source = case when source_page is null then 'api' else 'form' end`.execute(db);
  // The old time trap stored a lead without a page cookie, or sent quickly, as spam; those leads
  // come back into the list, marked for review with the reason they were held.
  await sql`update leads set
      is_spam = 0,
      spam_score = 20,
      spam_signals = '[{"signal":"legacy-time-trap","points":20,"detail":"' || replace(replace(coalesce(spam_reason, ''), '\\', '\\\\'), '"', '\\"') || '"}]'
    where is_spam = 1 and spam_reason like 'time trap:%'`.execute(db);
  await sql`update leads set spam_score = 100,
      spam_signals = '[{"signal":"honeypot","points":100,"detail":"honeypot field filled in"}]'
    where is_spam = 1 and spam_reason = 'honeypot field filled in'`.execute(db);
  const firstResponse = postgres
    ? sql`(extract(epoch from (min(c.changed_at)::timestamptz - leads.created_at::timestamptz)) * 1000)::bigint`
    : sql`cast(round((julianday(min(c.changed_at)) - julianday(leads.created_at)) * 86400000) as integer)`;
  await sql`update leads set first_response_ms = (
      select ${firstResponse} from lead_status_changes c where c.lead_id = leads.id
    ) where exists (select 1 from lead_status_changes c where c.lead_id = leads.id)`.execute(db);

  // A person's other submissions, oldest first.
  await db.schema.createIndex("leads_email_key_idx").on("leads").columns(["email_key", "id"]).execute();
  // Sorting a status's leads by name or company (with or without an owner filter) reads an index in
  // order and stops after a page. The keys are compared byte by byte on both databases (code point
  // order), so the order is the same. NOTE: every index is paid for on each of the hundreds of
  // submissions a second the form must take (npm run bench:leads): these two are the ones the
  // dashboard's sorted views need; other orders sort the matching rows.
  for (const [name, column] of [
    ["leads_company_sort_idx", "company_key"],
    ["leads_name_sort_idx", "full_name_key"],
  ] as const) {
    const key = postgres ? sql.raw(`${column} collate "C"`) : sql.raw(column);
    await sql`create index ${sql.raw(name)} on leads (is_spam, status, owner_id, ${key}, id)`.execute(db);
  }

  await autoIncrementId(db, db.schema.createTable("lead_notes"))
    .addColumn("lead_id", "integer", (column) => column.notNull().references("leads.id").onDelete("cascade"))
    .addColumn("body", "text", (column) => column.notNull())
    .addColumn("author_user_id", "integer", (column) => column.references("users.id").onDelete("set null"))
    // Kept as written at the time, like the status history.
    .addColumn("author_username", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("lead_notes_lead_idx").on("lead_notes").columns(["lead_id", "id"]).execute();

  // Everything else the timeline shows besides status changes and notes: owner changes, spam
  // verdicts and their reversal, notification outcomes.
  await autoIncrementId(db, db.schema.createTable("lead_events"))
    .addColumn("lead_id", "integer", (column) => column.notNull().references("leads.id").onDelete("cascade"))
    .addColumn("type", "text", (column) => column.notNull())
    .addColumn("actor_user_id", "integer", (column) => column.references("users.id").onDelete("set null"))
    .addColumn("actor_name", "text")
    // JSON with the event's particulars (from/to owner, the reason a notification failed, …).
    .addColumn("detail", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("lead_events_lead_idx").on("lead_events").columns(["lead_id", "id"]).execute();

  await autoIncrementId(db, db.schema.createTable("api_keys"))
    .addColumn("name", "text", (column) => column.notNull())
    // The first characters of the key, shown so staff can tell keys apart; never enough to use.
    .addColumn("key_prefix", "text", (column) => column.notNull())
    // SHA-256 of the key: a leaked table hands out no working key.
    .addColumn("key_hash", "text", (column) => column.notNull().unique())
    .addColumn("created_by_user_id", "integer", (column) =>
      column.references("users.id").onDelete("set null"),
    )
    .addColumn("created_by_username", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("last_used_at", "text")
    .addColumn("revoked_at", "text")
    .addColumn("revoked_by_username", "text")
    .execute();

  // The per-address and per-key limits become a sliding window: each key keeps the times of its
  // recent accepted hits (at most the limit), so "10 per 10 minutes" means any 10 minutes.
  await db.schema.dropTable("rate_limits").execute();
  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (column) => column.primaryKey())
    // JSON array of epoch milliseconds, oldest first.
    .addColumn("hits", "text", (column) => column.notNull())
    // Epoch milliseconds after which every hit has left the window: the row can be pruned.
    .addColumn("expires_at", "bigint", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("rate_limits_expires_idx").on("rate_limits").column("expires_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("rate_limits").execute();
  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (column) => column.primaryKey())
    .addColumn("window_id", "integer", (column) => column.notNull())
    .addColumn("hits", "integer", (column) => column.notNull())
    .execute();
  for (const table of ["api_keys", "lead_events", "lead_notes"]) await db.schema.dropTable(table).execute();
  for (const index of ["leads_name_sort_idx", "leads_company_sort_idx", "leads_email_key_idx"])
    await db.schema.dropIndex(index).execute();
  for (const column of [
    "first_response_ms",
    "spam_reviewed_at",
    "spam_signals",
    "spam_score",
    "owner_id",
    "api_key_id",
    "source",
    "company_key",
    "full_name_key",
    "email_key",
  ])
    await db.schema.alterTable("leads").dropColumn(column).execute();
}
