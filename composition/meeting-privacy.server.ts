import type { Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { eraseMeetingAttendee } from "#app/features/meetings/meeting-erasure.server.ts";
import { onMeetingErased } from "./meeting-changes.server.ts";

// A person's meetings follow their leads (issue 34): erasing the person (people, through
// leads/lead-erasure.server.ts) and anonymising their leads by the retention policy
// (leads/lead-retention.server.ts) clear the attendee's data from their meetings in the same
// transaction, and cancel the ones still to come (features/meetings/meeting-erasure.server.ts).
// Leads and meetings know nothing of each other; they meet here.

/** For ErasePerson.alsoErase: the person's meetings, by their leads and their e-mail. */
export function eraseMeetingsOfPerson(
  trx: Transaction<Database>,
  person: { email: string; leadIds: number[]; now: Date },
) {
  return eraseMeetingAttendee(
    trx,
    { leadIds: person.leadIds, email: person.email, now: person.now.getTime(), detachLeads: true },
    onMeetingErased,
  );
}

/** For the retention purge's AlsoAnonymise: the meetings of the leads it anonymised. */
export function anonymiseMeetingsOfLeads(trx: Transaction<Database>, leadIds: number[], now: Date) {
  return eraseMeetingAttendee(trx, { leadIds, now: now.getTime() }, onMeetingErased);
}
