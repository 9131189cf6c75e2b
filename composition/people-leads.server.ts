import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { LeadAdmin } from "#app/features/leads/lead-admin.server.ts";
import { leadDetail } from "#app/features/leads/lead-admin-http.server.ts";
import { erasedOn, leadIdsOf } from "#app/features/leads/lead-erasure.server.ts";
import { formerLeadsOf } from "#app/features/leads/lead-former-emails.server.ts";
import type { PeopleLeads } from "#app/features/people/people-context.server.ts";
import { eraseMeetingsOfPerson } from "./meeting-privacy.server.ts";

/**
 * What people's data rights need of the leads (features/people/people-context.server.ts), from the
 * leads feature. Without `leadAdmin` (a test that only reads) erasing throws. Erasing a person also
 * cancels their meetings to come and clears them from all their meetings (meeting-privacy), in the
 * same transaction; `afterErase` then wakes the outbox (the hosts' calendars).
 */
export function createPeopleLeads(
  db: Kysely<Database>,
  secret: string,
  leadAdmin?: Pick<LeadAdmin, "erasePerson">,
  afterErase: () => void = () => {},
): PeopleLeads {
  return {
    leadIdsOf: (email) => leadIdsOf(db, email),
    formerLeadsOf: (email) => formerLeadsOf(db, email),
    erasedOn: (email) => erasedOn(db, secret, email),
    leadRecord: (id) => leadDetail(db, id),
    erasePerson: async (request) => {
      if (!leadAdmin) throw new Error("No lead admin to erase with.");
      const erased = await leadAdmin.erasePerson({ ...request, secret, alsoErase: eraseMeetingsOfPerson });
      afterErase();
      return erased;
    },
  };
}
