import type { Kysely } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import { recordAccess } from "#app/lib/access-log.server.ts";
import { eraseLeads } from "../lead-admin.server.ts";
import { leadKeys } from "../lead-repository.server.ts";
import {
  type CommitOptions,
  chunks,
  ImportStateError,
  MERGED_FIELDS,
  type MergedField,
  yieldToLoop,
} from "./lead-import.server.ts";

// "Undo this import" (issue 23): the batch's new leads removed, its merges reverted, recorded.

type Db = Kysely<Database>;

/**
 * "Undo this import": removes the leads it created (with whatever was added to them since) and puts
 * back the fields of the leads it merged into, those still as the import left them (a later import
 * that changed one again keeps its value). Recorded in the
 * access log and on each reverted lead's timeline. Throws ImportStateError unless it is committed.
 */
export async function undoImport(
  db: Db,
  importId: number,
  {
    actor,
    clientAddress,
    onLeadChange,
    now = new Date(),
  }: Omit<CommitOptions, "fileName" | "source" | "ownerId" | "draftId">,
) {
  const timestamp = now.toISOString();
  let queued = 0;
  const result = await db.transaction().execute(async (trx) => {
    const batch = await trx
      .selectFrom("leadImports")
      .select(["fileName"])
      .where("id", "=", importId)
      .executeTakeFirst();
    const claimed = await trx
      .updateTable("leadImports")
      .set({ status: "undone", undoneAt: timestamp, undoneByUsername: actor.username })
      .where("id", "=", importId)
      .where("status", "=", "committed")
      .executeTakeFirst();
    if (!batch || Number(claimed.numUpdatedRows) !== 1)
      throw new ImportStateError(
        "This import cannot be undone: it was already undone, or it does not exist.",
      );
    const changes = await trx
      .selectFrom("leadImportChanges")
      .select(["leadId", "kind", "previous"])
      .where("importId", "=", importId)
      .orderBy("id")
      .execute();
    const webhooks = await trx.selectFrom("webhooks").select(["id", "events"]).execute();
    const createdIds = changes
      .filter((change) => change.kind === "created")
      .map((change) => Number(change.leadId));
    let removed = 0;
    // As the commit: parts with a turn of the event loop between them on SQLite (issue 32).
    for (const part of chunks(createdIds, isPostgres(trx) ? 1000 : 250)) {
      await yieldToLoop();
      // The change goes out (webhooks) before the rows it describes are gone.
      for (const leadId of part) {
        const deliveries = await onLeadChange?.(trx, {
          type: "lead.deleted",
          leadId,
          occurredAt: now,
          webhooks,
        });
        if (typeof deliveries === "number") queued += deliveries;
      }
      removed += await eraseLeads(trx, part);
    }
    let reverted = 0;
    for (const change of changes) {
      if (change.kind !== "merged" || !change.previous) continue;
      if (reverted % 50 === 49) await yieldToLoop();
      const leadId = Number(change.leadId);
      const { before, after } = JSON.parse(change.previous) as {
        before: Record<MergedField, string | null>;
        after: Partial<Record<MergedField, string | null>>;
      };
      const current = await trx
        .selectFrom("leads")
        .select(["fullName", "email", "company", "phone", "message"])
        .where("id", "=", leadId)
        .where("anonymisedAt", "is", null)
        .executeTakeFirst();
      if (!current) continue;
      // A field a later import changed again keeps that later value.
      const restored = Object.fromEntries(
        MERGED_FIELDS.filter((field) => field in after && current[field] === after[field]).map((field) => [
          field,
          before[field],
        ]),
      ) as Partial<Record<MergedField, string | null>>;
      if (Object.keys(restored).length > 0) {
        const fields = { ...current, ...restored };
        await trx
          .updateTable("leads")
          .set({
            fullName: fields.fullName ?? current.fullName,
            company: fields.company ?? current.company,
            phone: fields.phone ?? current.phone,
            message: fields.message,
            ...leadKeys({
              fullName: fields.fullName ?? current.fullName,
              company: fields.company ?? current.company,
              email: current.email,
            }),
            updatedAt: timestamp,
          })
          .where("id", "=", leadId)
          .execute();
      }
      await trx
        .insertInto("leadEvents")
        .values({
          leadId,
          type: "import_reverted",
          actorUserId: actor.id,
          actorName: actor.username,
          detail: JSON.stringify({ importId, fileName: batch.fileName }),
          createdAt: timestamp,
        })
        .execute();
      const deliveries = await onLeadChange?.(trx, {
        type: "lead.updated",
        leadId,
        occurredAt: now,
        webhooks,
      });
      if (typeof deliveries === "number") queued += deliveries;
      reverted++;
    }
    await recordAccess(
      trx,
      { action: "lead_import_undone", actor, detail: { importId, removed, reverted }, clientAddress },
      now,
    );
    return { removed, reverted };
  });
  return { ...result, queued };
}
