import type { Kysely, Transaction } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import { recordAccess } from "#app/lib/access-log.server.ts";
import { metrics } from "#app/lib/metrics.server.ts";
import { neutraliseFormula } from "../lead-csv.server.ts";
import { suppressionKey } from "../lead-erasure.server.ts";
import type { Actor } from "../lead-events.server.ts";
import { contactKey, leadKeys } from "../lead-repository.server.ts";
import {
  type DemoRequest,
  type FieldErrors,
  POLICY_VERSION,
  PRIVACY_NOTICE_VERSION,
  parseLeadSubmission,
} from "../lead-schema.ts";
import type { LeadChangeHook } from "../lead-service.server.ts";
import { type StaffSource, staffSourceValue } from "../lead-sources.ts";
import { type BulkColumn, bulkInsert } from "./bulk-insert.server.ts";
import type { CsvTable } from "./csv-parse.ts";
import { IMPORT_FIELD_KEYS, IMPORT_FIELDS, type ImportField, type ImportMapping } from "./import-mapping.ts";

// A CSV import (issue 23) in three steps: plan (validate every row, find who it merges with: no
// writes, the dry run), commit (one transaction: the batch, its leads, their timelines and webhooks,
// the access log) and undo (import-undo.server.ts: the batch's leads removed, its merges reverted).
//
// Merging is by email with the person's latest lead already there: the row's non-empty fields replace
// that lead's (a blank cell keeps what is there), the lead's fields as they were are kept with the
// batch, and its timeline says what changed. Rows are never merged silently: the plan lists each.

type Trx = Transaction<Database>;
type Db = Kysely<Database>;

/** Fields a merge may change (the email is what matched). */
export const MERGED_FIELDS = ["fullName", "company", "phone", "message"] as const;
export type MergedField = (typeof MERGED_FIELDS)[number];

export type ImportRowPlan =
  | { row: number; kind: "new"; lead: DemoRequest }
  | {
      row: number;
      kind: "merge";
      lead: DemoRequest;
      into: { id: number; fullName: string; email: string };
      changes: MergedField[];
      previous: Record<MergedField, string | null>;
    }
  | { row: number; kind: "error"; errors: FieldErrors; values: Record<ImportField, string> };

export type ImportPlan = {
  rows: ImportRowPlan[];
  counts: { imported: number; merged: number; failed: number };
};

/** Rows checked between two yields to the event loop: a 10,000-row plan never holds it long. */
const YIELD_EVERY = 100;
const CHUNK = 400;
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * A cell as the import stores it: trimmed, and neutralised as the export neutralises it (a leading
 * = + - @, tab, CR or their fullwidth twins gets an apostrophe). The phone is left as it is: its
 * rule admits only digits, spaces, ( ) . / - and a leading +, which cannot form a formula, and a
 * leading apostrophe would make every "+44…" number invalid. The export neutralises it on the way out.
 */
export function importCell(field: ImportField, raw: string | undefined): string {
  const value = (raw ?? "").trim();
  return field === "phone" ? value : neutraliseFormula(value);
}

const DATE = (iso: string) => iso.slice(0, 10);

/** Validates every row and finds the people it merges with; writes nothing (the dry run). */
export async function planImport(
  db: Db,
  secret: string,
  table: Pick<CsvTable, "rows">,
  mapping: ImportMapping,
): Promise<ImportPlan> {
  const values = table.rows.map(({ line, cells }) => ({
    row: line,
    values: Object.fromEntries(
      IMPORT_FIELD_KEYS.map((field) => {
        const index = mapping[field];
        return [field, index === null ? "" : importCell(field, cells[index])];
      }),
    ) as Record<ImportField, string>,
  }));
  const keys = [...new Set(values.map((row) => contactKey(row.values.email)).filter(Boolean))];
  const existing = await latestLeadsByEmail(db, keys);
  const erased = await erasedEmails(db, secret, keys);

  const firstRowOf = new Map<string, number>();
  const rows: ImportRowPlan[] = [];
  const counts = { imported: 0, merged: 0, failed: 0 };
  for (const [index, { row, values: cells }] of values.entries()) {
    if (index > 0 && index % YIELD_EVERY === 0) await yieldToLoop();
    const key = contactKey(cells.email);
    const match = key ? existing.get(key) : undefined;
    // A blank cell of a row that merges keeps what the lead has.
    const filled = match
      ? {
          ...cells,
          fullName: cells.fullName || match.fullName,
          company: cells.company || match.company,
          phone: cells.phone || match.phone,
        }
      : cells;
    const parsed = parseLeadSubmission({ ...filled, message: filled.message || null });
    const errors: FieldErrors = parsed.success ? {} : { ...parsed.errors };
    if (key && firstRowOf.has(key)) errors.email ??= `The same email is on row ${firstRowOf.get(key)}`;
    const erasedAt = key ? erased.get(key) : undefined;
    if (erasedAt) errors.email ??= `This person asked to be erased on ${DATE(erasedAt)}: not imported`;
    if (key && !firstRowOf.has(key)) firstRowOf.set(key, row);
    if (!parsed.success || Object.keys(errors).length > 0 || parsed.data.requestType !== "demo") {
      rows.push({ row, kind: "error", errors, values: cells });
      counts.failed++;
      continue;
    }
    const lead: DemoRequest = parsed.data;
    if (!match) {
      rows.push({ row, kind: "new", lead });
      counts.imported++;
      continue;
    }
    const previous = {
      fullName: match.fullName,
      company: match.company,
      phone: match.phone,
      message: match.message,
    };
    const changes = MERGED_FIELDS.filter((field) => lead[field] !== null && lead[field] !== previous[field]);
    rows.push({
      row,
      kind: "merge",
      lead,
      into: { id: match.id, fullName: match.fullName, email: match.email },
      changes,
      previous,
    });
    counts.merged++;
  }
  return { rows, counts };
}

type ExistingLead = {
  id: number;
  fullName: string;
  email: string;
  company: string;
  phone: string;
  message: string | null;
};

/** Each email's latest lead still in the list (not anonymised, not held as spam). */
async function latestLeadsByEmail(db: Db | Trx, keys: string[]): Promise<Map<string, ExistingLead>> {
  const found = new Map<string, ExistingLead>();
  for (const part of chunks(keys)) {
    const rows = await db
      .selectFrom("leads")
      .select(["id", "emailKey", "fullName", "email", "company", "phone", "message"])
      .where("emailKey", "in", part)
      .where("anonymisedAt", "is", null)
      .where("isSpam", "=", 0)
      .execute();
    for (const row of rows) {
      const current = found.get(row.emailKey);
      if (current && current.id > Number(row.id)) continue;
      found.set(row.emailKey, { ...row, id: Number(row.id) });
    }
  }
  return found;
}

/** The emails among `keys` whose person was erased on request, with when. */
async function erasedEmails(db: Db | Trx, secret: string, keys: string[]): Promise<Map<string, string>> {
  const byHmac = new Map<string, string>();
  for (const [index, key] of keys.entries()) {
    if (index > 0 && index % (YIELD_EVERY * 5) === 0) await yieldToLoop();
    byHmac.set(suppressionKey(secret, key), key);
  }
  const erased = new Map<string, string>();
  for (const part of chunks([...byHmac.keys()])) {
    const rows = await db
      .selectFrom("erasureSuppressions")
      .select(["emailHmac", "erasedAt"])
      .where("emailHmac", "in", part)
      .execute();
    for (const row of rows) erased.set(byHmac.get(row.emailHmac) as string, row.erasedAt);
  }
  return erased;
}

export type CommitOptions = {
  fileName: string;
  source: StaffSource;
  ownerId: number | null;
  actor: Actor;
  clientAddress: string | null;
  /** The draft the page's upload created; the API commits without one. */
  draftId?: number;
  onLeadChange?: LeadChangeHook;
  now?: Date;
};

export class ImportStateError extends Error {}

/**
 * Commits a plan as one batch, in one transaction: the new leads (in multi-row inserts), the merges,
 * every lead's timeline entry and webhooks, the batch's record for the undo, and the access log.
 */
export async function commitImport(db: Db, plan: ImportPlan, options: CommitOptions) {
  const now = options.now ?? new Date();
  const timestamp = now.toISOString();
  const { actor, ownerId, fileName, onLeadChange } = options;
  const source = staffSourceValue(options.source);
  let queued = 0;
  const importId = await db.transaction().execute(async (trx) => {
    let id: number;
    if (options.draftId !== undefined) {
      const claimed = await trx
        .updateTable("leadImports")
        .set({ status: "committed" })
        .where("id", "=", options.draftId)
        .where("status", "=", "draft")
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1)
        throw new ImportStateError("This file was already imported, or its upload expired. Upload it again.");
      id = options.draftId;
    } else {
      const row = await trx
        .insertInto("leadImports")
        .values({
          fileName,
          status: "committed",
          createdByUserId: actor.id,
          createdByUsername: actor.username,
          createdAt: timestamp,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      id = Number(row.id);
    }
    const owner =
      ownerId === null
        ? null
        : await trx.selectFrom("users").select("username").where("id", "=", ownerId).executeTakeFirst();
    const webhooks = await trx.selectFrom("webhooks").select(["id", "events"]).execute();
    const count = async (result: unknown) => {
      if (typeof result === "number") queued += result;
    };

    const created = plan.rows.filter((row) => row.kind === "new");
    // node:sqlite runs each statement on the event loop: small parts with a turn of the loop between
    // them keep every other request (pages, sign-ins) answered while the transaction goes on. Other
    // writes wait for the transaction asynchronously (ADR 008), and nothing of the batch is visible
    // until it commits, whole (issue 32). PostgreSQL's statements run in its server: larger parts.
    const createChunk = isPostgres(trx) ? CREATE_CHUNK_POSTGRES : CREATE_CHUNK_SQLITE;
    for (const part of chunks(created, createChunk)) {
      await yieldToLoop();
      const inserted = await bulkInsert<{ id: number | string; emailKey: string }>(
        trx,
        "leads",
        LEAD_COLUMNS,
        part.map((row) => leadValues(row.lead, { source, ownerId, actor, timestamp })),
        ["id", "email_key"],
      );
      const idByKey = new Map(inserted.map((row) => [row.emailKey, Number(row.id)]));
      const leadIds = part.map((row) => idByKey.get(contactKey(row.lead.email)) as number);
      // One timeline entry each, which names the owner the batch gave it.
      const detail = JSON.stringify({ importId: id, fileName, owner: owner?.username ?? null });
      await bulkInsert(
        trx,
        "lead_events",
        EVENT_COLUMNS,
        leadIds.map((leadId) => [leadId, "imported", actor.id, actor.username, detail, timestamp]),
      );
      await bulkInsert(
        trx,
        "lead_import_changes",
        CHANGE_COLUMNS,
        part.map((row, index) => [id, leadIds[index], "created", row.row, null]),
      );
      for (const leadId of leadIds)
        await count(await onLeadChange?.(trx, { type: "lead.created", leadId, occurredAt: now, webhooks }));
    }

    let merges = 0;
    for (const row of plan.rows) {
      if (row.kind !== "merge") continue;
      if (++merges % MERGES_PER_TURN === 0) await yieldToLoop();
      if (row.changes.length > 0)
        await trx
          .updateTable("leads")
          .set({
            ...Object.fromEntries(row.changes.map((field) => [field, row.lead[field]])),
            ...leadKeys({ ...row.previous, ...row.lead }),
            updatedAt: timestamp,
          })
          .where("id", "=", row.into.id)
          .execute();
      await trx
        .insertInto("leadEvents")
        .values({
          leadId: row.into.id,
          type: "merged_from_import",
          actorUserId: actor.id,
          actorName: actor.username,
          detail: JSON.stringify({
            importId: id,
            fileName,
            fields: row.changes.map((field) => IMPORT_FIELDS[field]),
          }),
          createdAt: timestamp,
        })
        .execute();
      await trx
        .insertInto("leadImportChanges")
        .values({
          importId: id,
          leadId: row.into.id,
          kind: "merged",
          rowNumber: row.row,
          // The fields before and after: the undo puts back only those still as the import left them.
          previous: JSON.stringify({
            before: row.previous,
            after: Object.fromEntries(row.changes.map((field) => [field, row.lead[field]])),
          }),
        })
        .execute();
      if (row.changes.length > 0)
        await count(
          await onLeadChange?.(trx, { type: "lead.updated", leadId: row.into.id, occurredAt: now, webhooks }),
        );
    }

    const { imported, merged, failed } = plan.counts;
    await trx
      .updateTable("leadImports")
      .set({
        content: null,
        rowCount: plan.rows.length,
        source: options.source,
        ownerId,
        imported,
        merged,
        failed,
        committedAt: timestamp,
      })
      .where("id", "=", id)
      .execute();
    await recordAccess(
      trx,
      {
        action: "leads_imported",
        actor,
        detail: { importId: id, file: fileName.slice(0, 100), imported, merged, failed },
        clientAddress: options.clientAddress,
      },
      now,
    );
    return id;
  });
  if (plan.counts.imported > 0)
    metrics.leadsStored.inc({ type: "demo", via: "import" }, plan.counts.imported);
  return { importId, ...plan.counts, queued };
}

/**
 * New leads per part: one multi-row insert each of the leads, their timeline entries and the batch's
 * records. On SQLite a part runs on the event loop (10-30 ms of CPU for 100), on PostgreSQL in its
 * server: 10,000 leads in a few statements there.
 */
const CREATE_CHUNK_SQLITE = 100;
const CREATE_CHUNK_POSTGRES = 2000;
/** Merges (a few statements each) between two turns of the event loop. */
const MERGES_PER_TURN = 50;

const text = (name: string): BulkColumn => ({ name, type: "text" });
const integer = (name: string): BulkColumn => ({ name, type: "integer" });

const LEAD_COLUMNS: BulkColumn[] = [
  text("request_type"),
  text("full_name"),
  text("email"),
  text("company"),
  text("phone"),
  text("message"),
  integer("investor_angel"),
  integer("investor_vc"),
  integer("investor_introducer"),
  integer("investor_other"),
  text("source"),
  text("privacy_notice_version"),
  text("policy_version"),
  integer("is_spam"),
  integer("spam_score"),
  text("email_key"),
  text("full_name_key"),
  text("company_key"),
  integer("owner_id"),
  integer("added_by_user_id"),
  text("added_by_username"),
  text("created_at"),
  text("updated_at"),
];
const EVENT_COLUMNS = [
  integer("lead_id"),
  text("type"),
  integer("actor_user_id"),
  text("actor_name"),
  text("detail"),
  text("created_at"),
];
const CHANGE_COLUMNS = [
  integer("import_id"),
  integer("lead_id"),
  text("kind"),
  integer("row_number"),
  text("previous"),
];

/** A new lead's row in LEAD_COLUMNS order: a demo request, never spam, added by `actor`. */
function leadValues(
  lead: DemoRequest,
  meta: { source: string; ownerId: number | null; actor: Actor; timestamp: string },
): unknown[] {
  const keys = leadKeys(lead);
  return [
    "demo",
    lead.fullName,
    lead.email,
    lead.company,
    lead.phone,
    lead.message,
    0,
    0,
    0,
    0,
    meta.source,
    PRIVACY_NOTICE_VERSION,
    POLICY_VERSION,
    0,
    0,
    keys.emailKey,
    keys.fullNameKey,
    keys.companyKey,
    meta.ownerId,
    meta.actor.id,
    meta.actor.username,
    meta.timestamp,
    meta.timestamp,
  ];
}
