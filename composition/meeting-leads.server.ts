import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { leadSubmissionContext } from "#app/features/leads/lead-http.server.ts";
import { contactKey } from "#app/features/leads/lead-repository.server.ts";
import type { LeadService } from "#app/features/leads/lead-service.server.ts";
import type { MeetingLead, MeetingLeads } from "#app/features/meetings/meetings-context.server.ts";

/**
 * What bookings need of the leads (features/meetings/meetings-context.server.ts): a booking from
 * /book/* or the API stores its contact through the lead service, as the API's own requests are
 * (validation, rate limit, time trap, attribution, notification and webhooks).
 */
export function createMeetingLeads(db: Kysely<Database>, leads: Pick<LeadService, "submit">): MeetingLeads {
  return {
    async submit(contact, request, clientAddress) {
      const result = await leads.submit(contact, leadSubmissionContext(request, clientAddress, "api"));
      switch (result.kind) {
        case "stored":
          return result.spam ? { kind: "held" } : { kind: "stored", leadId: result.id };
        case "invalid":
          return {
            kind: "invalid",
            errors: Object.fromEntries(
              Object.entries(result.errors).flatMap(([field, message]) =>
                message ? [[field, message]] : [],
              ),
            ),
          };
        case "rate-limited":
          return result;
        case "erased":
          // Only an API key's submission is refused this way; a booking carries none.
          throw new Error("A booking's lead was refused as erased");
      }
    },
    async find(leadId) {
      return toMeetingLead(await leadColumns(db).where("id", "=", leadId).executeTakeFirst());
    },
    async latestOf(email) {
      return toMeetingLead(
        await leadColumns(db)
          .where("emailKey", "=", contactKey(email))
          .orderBy("id", "desc")
          .limit(1)
          .executeTakeFirst(),
      );
    },
    async ownerOf(email) {
      const row = await db
        .selectFrom("leads")
        .select("ownerId")
        .where("emailKey", "=", contactKey(email))
        .where("anonymisedAt", "is", null)
        .where("ownerId", "is not", null)
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      return row?.ownerId ?? null;
    },
  };
}

/** A lead's columns a booking reads, of leads not anonymised. */
function leadColumns(db: Kysely<Database>) {
  return db
    .selectFrom("leads")
    .select(["id", "ownerId", "fullName", "email", "company", "phone", "isSpam"])
    .where("anonymisedAt", "is", null);
}

function toMeetingLead(
  row:
    | {
        id: number;
        ownerId: number | null;
        fullName: string;
        email: string;
        company: string;
        phone: string | null;
        isSpam: number;
      }
    | undefined,
): MeetingLead | null {
  if (!row) return null;
  const { isSpam, ...lead } = row;
  return { ...lead, phone: lead.phone || null, spam: isSpam === 1 };
}
