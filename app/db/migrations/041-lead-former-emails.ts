import { type Kysely, sql } from "kysely";
import { autoIncrementId } from "../migration-helpers.ts";

// ADR 044: staff may correct a lead's e-mail, which moves the lead to the person of the new
// address. The old address stays named on the lead's `contact_changed` timeline entry, so its
// holder's erasure and subject-access requests must still find the lead: `lead_former_emails` keeps
// each address a lead carried before an edit replaced it, by its key (`leads.email_key`'s
// normalisation), written in the edit's transaction. It goes with the lead (erasure, retention) and
// with the address (its holder's erasure, which also scrubs it from the timeline).
//
// Existing edits are carried over from their timeline entries. NOTE: the key is computed here as
// the app computed it when this shipped (trimmed, lower-cased in JavaScript), not by importing the
// app's function, so the migration stays what it was.

const keyOf = (email: string) => email.trim().toLowerCase();

export async function up(db: Kysely<unknown>): Promise<void> {
  await autoIncrementId(db, db.schema.createTable("lead_former_emails"))
    .addColumn("lead_id", "integer", (column) => column.notNull().references("leads.id").onDelete("cascade"))
    /** The replaced address's key, as `leads.email_key` holds a current one. */
    .addColumn("email_key", "text", (column) => column.notNull())
    .addColumn("replaced_at", "text", (column) => column.notNull())
    .execute();
  // Erasure and subject access look an address up; a lead's rows go with it (cascade, retention).
  await db.schema
    .createIndex("lead_former_emails_key_idx")
    .on("lead_former_emails")
    .columns(["email_key", "lead_id"])
    .execute();
  await db.schema
    .createIndex("lead_former_emails_lead_idx")
    .on("lead_former_emails")
    .column("lead_id")
    .execute();

  // One-word names: the same with and without the connection's CamelCasePlugin.
  const { rows } = await sql<{ lead: number | string; detail: string | null; at: string }>`
    select lead_id as lead, detail, created_at as at from lead_events
    where type = 'contact_changed' order by id`.execute(db);
  const values: { lead_id: number; email_key: string; replaced_at: string }[] = [];
  for (const row of rows) {
    let changes: unknown;
    try {
      changes = (JSON.parse(row.detail ?? "{}") as { changes?: unknown }).changes;
    } catch {
      continue;
    }
    if (!Array.isArray(changes)) continue;
    for (const change of changes as { field?: unknown; from?: unknown; to?: unknown }[]) {
      if (change?.field !== "email" || typeof change.from !== "string") continue;
      const from = keyOf(change.from);
      if (from === "" || (typeof change.to === "string" && keyOf(change.to) === from)) continue;
      values.push({ lead_id: Number(row.lead), email_key: from, replaced_at: row.at });
    }
  }
  // biome-ignore lint/suspicious/noExplicitAny: the table is created above; Kysely<unknown> has no types
  const untyped = db as Kysely<any>;
  for (let start = 0; start < values.length; start += 500)
    await untyped
      .insertInto("lead_former_emails")
      .values(values.slice(start, start + 500))
      .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("lead_former_emails").execute();
}
