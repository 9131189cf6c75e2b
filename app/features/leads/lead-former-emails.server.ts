import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { ERASED_VALUE, WITHHELD_VALUE } from "./lead-contact-schema.ts";
import { contactKey } from "./lead-repository.server.ts";

// Addresses a lead carried before (ADR 044). A corrected e-mail moves the lead to the person of its
// new address, but the `contact_changed` entry on its timeline still names the old one. So each
// replaced address is kept by its key (`lead_former_emails`, migration 041), in the edit's
// transaction, and the old address's holder is still found:
//
// - Subject access lists the leads that once carried their address: the field, when it was
//   replaced, and the timeline entries naming it, each reduced to that one change with the other
//   side withheld. The lead itself (name, phone, notes, the rest of its timeline) is the person it
//   belongs to now, and is not theirs to read.
// - Erasure replaces their address in those entries (and in an import's record of the lead's fields
//   before a merge) with ERASED_VALUE and deletes the rows; the lead stays, its person's.
//
// A lead's rows go with the lead (erasure, the spam purge, retention's anonymisation).

type Db = Kysely<Database> | Transaction<Database>;

/** A lead that carried the address before an edit replaced it, as its holder's export shows it. */
export type FormerLead = {
  leadId: number;
  /** The field that held the address. */
  field: "email";
  /** When edits replaced it on this lead, oldest first (more than once if it was put back and replaced). */
  replacedAt: string[];
  /**
   * The lead's timeline entries that name the address, newest first, each with that change alone; the
   * value that is not the address (another person's) reads WITHHELD_VALUE.
   */
  timeline: {
    kind: "contact_changed";
    id: string;
    at: string;
    actor: string | null;
    changes: { field: "email"; from: string | null; to: string | null }[];
  }[];
};

/** Records that an edit replaced `email` on the lead (called in the edit's transaction). */
export async function recordFormerEmail(
  trx: Transaction<Database>,
  leadId: number,
  email: string,
  now: Date,
): Promise<void> {
  await trx
    .insertInto("leadFormerEmails")
    .values({ leadId, emailKey: contactKey(email), replacedAt: now.toISOString() })
    .execute();
}

type StoredChange = { field?: unknown; from?: unknown; to?: unknown };

function storedChanges(detail: string | null): StoredChange[] | null {
  try {
    const parsed = JSON.parse(detail ?? "{}") as { changes?: unknown } | null;
    return Array.isArray(parsed?.changes) ? (parsed.changes as StoredChange[]) : null;
  } catch {
    return null;
  }
}

const names = (value: unknown, key: string): value is string =>
  typeof value === "string" && contactKey(value) === key;

/**
 * The leads that carried `email` before and carry another address now (a lead carrying it again is
 * the person's own, found with their leads), with what of them is the person's.
 */
export async function formerLeadsOf(db: Db, email: string): Promise<FormerLead[]> {
  const key = contactKey(email);
  if (key === "") return [];
  const rows = await db
    .selectFrom("leadFormerEmails as former")
    .innerJoin("leads", "leads.id", "former.leadId")
    .select(["former.leadId", "former.replacedAt"])
    .where("former.emailKey", "=", key)
    .where("leads.emailKey", "!=", key)
    .where("leads.anonymisedAt", "is", null)
    .orderBy("former.leadId")
    .orderBy("former.replacedAt")
    .execute();
  if (rows.length === 0) return [];
  const byLead = new Map<number, FormerLead>();
  for (const row of rows) {
    const leadId = Number(row.leadId);
    const lead = byLead.get(leadId) ?? { leadId, field: "email" as const, replacedAt: [], timeline: [] };
    lead.replacedAt.push(row.replacedAt);
    byLead.set(leadId, lead);
  }
  const events = await db
    .selectFrom("leadEvents")
    .select(["id", "leadId", "actorName", "detail", "createdAt"])
    .where("leadId", "in", [...byLead.keys()])
    .where("type", "=", "contact_changed")
    .orderBy("id", "desc")
    .execute();
  for (const event of events) {
    const changes = (storedChanges(event.detail) ?? [])
      .filter((change) => change.field === "email" && (names(change.from, key) || names(change.to, key)))
      .map((change) => ({
        field: "email" as const,
        from: names(change.from, key) ? change.from : change.from == null ? null : WITHHELD_VALUE,
        to: names(change.to, key) ? change.to : change.to == null ? null : WITHHELD_VALUE,
      }));
    if (changes.length === 0) continue;
    byLead.get(Number(event.leadId))?.timeline.push({
      kind: "contact_changed",
      // As the lead's own timeline names the entry.
      id: `event-${event.id}`,
      at: event.createdAt,
      actor: event.actorName,
      changes,
    });
  }
  return [...byLead.values()];
}

/**
 * Erases `email` from the leads that carried it before (its holder's erasure, after their own leads
 * went): the address becomes ERASED_VALUE in those leads' `contact_changed` entries and in an
 * import's record of their fields before a merge, and its rows are deleted. The leads stay. How many
 * leads it was on.
 */
export async function eraseFormerEmail(trx: Transaction<Database>, email: string): Promise<number> {
  const key = contactKey(email);
  if (key === "") return 0;
  const rows = await trx
    .selectFrom("leadFormerEmails")
    .select("leadId")
    .where("emailKey", "=", key)
    .execute();
  const leadIds = [...new Set(rows.map((row) => Number(row.leadId)))];
  if (leadIds.length === 0) return 0;
  const erased = (value: unknown) => (names(value, key) ? ERASED_VALUE : value);

  const events = await trx
    .selectFrom("leadEvents")
    .select(["id", "detail"])
    .where("leadId", "in", leadIds)
    .where("type", "=", "contact_changed")
    .execute();
  for (const event of events) {
    const changes = storedChanges(event.detail);
    if (
      !changes?.some(
        (change) => change.field === "email" && (names(change.from, key) || names(change.to, key)),
      )
    )
      continue;
    const detail = {
      ...(JSON.parse(event.detail ?? "{}") as Record<string, unknown>),
      changes: changes.map((change) =>
        change.field === "email" ? { ...change, from: erased(change.from), to: erased(change.to) } : change,
      ),
    };
    await trx
      .updateTable("leadEvents")
      .set({ detail: JSON.stringify(detail) })
      .where("id", "=", event.id)
      .execute();
  }

  // A merge's record of the lead's fields before and after (lead_import_changes.previous), kept for
  // "Undo this import": the e-mail there is the address the lead had then. NOTE: an erased value is
  // never put back, as the undo restores a field only while the lead still holds the import's value.
  const merges = await trx
    .selectFrom("leadImportChanges")
    .select(["id", "previous"])
    .where("leadId", "in", leadIds)
    .where("kind", "=", "merged")
    .execute();
  for (const merge of merges) {
    let previous: { before?: Record<string, unknown>; after?: Record<string, unknown> };
    try {
      previous = JSON.parse(merge.previous ?? "{}");
    } catch {
      continue;
    }
    if (!names(previous.before?.email, key) && !names(previous.after?.email, key)) continue;
    const scrub = (fields?: Record<string, unknown>) =>
      fields && "email" in fields ? { ...fields, email: erased(fields.email) } : fields;
    await trx
      .updateTable("leadImportChanges")
      .set({
        previous: JSON.stringify({
          ...previous,
          before: scrub(previous.before),
          after: scrub(previous.after),
        }),
      })
      .where("id", "=", merge.id)
      .execute();
  }

  await trx.deleteFrom("leadFormerEmails").where("emailKey", "=", key).execute();
  return leadIds.length;
}
