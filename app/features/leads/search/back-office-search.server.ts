import { type Kysely, sql } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { DASHBOARD_PATH, PEOPLE_PATH } from "#app/lib/admin-paths.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { containsPattern, filterLeads } from "../lead-admin.server.ts";
import {
  type CompanyHit,
  type LeadHit,
  MAX_QUERY_LENGTH,
  type PersonHit,
  type SearchResults,
} from "./search-types.ts";

// The shell's global search (issue 23): leads by id, name, email or company; the people behind
// them (one row per email, linking to their data on /admin/people); and companies (linking to the
// lead list searched for them). One bounded query per group, all three at once; the JSON API and
// the no-JavaScript /admin/search page share this. Genuine leads only: spam is reviewed in its view.

/** A group shows this many; the search page links to the full lead list for more. */
export const GROUP_LIMIT = 5;

export type ParsedQuery = { ok: true; query: string } | { ok: false; message: string };

/** The typed text: trimmed, at most 100 characters, one line. Empty is a valid (empty) search. */
export function parseSearchQuery(raw: unknown): ParsedQuery {
  if (raw !== null && raw !== undefined && typeof raw !== "string")
    return { ok: false, message: "Type what to search for." };
  const query = (raw ?? "").trim();
  if (query.length > MAX_QUERY_LENGTH)
    return { ok: false, message: `Search for at most ${MAX_QUERY_LENGTH} characters.` };
  if (breaksTextRule(query, "one-line"))
    return { ok: false, message: "The search may not contain control characters." };
  return { ok: true, query };
}

/** "42" or "#42": the lead with that number. */
function leadIdOf(query: string): number | null {
  const match = /^#?(\d{1,15})$/.exec(query);
  if (!match?.[1]) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const leadHref = (id: number) => `/admin/leads/${id}`;

/** Everything that matches `query` (already parsed), each group newest or largest first. */
export async function searchBackOffice(db: Kysely<Database>, query: string): Promise<SearchResults> {
  const empty: SearchResults = { query, leads: [], people: [], companies: [] };
  if (query === "") return empty;
  const id = leadIdOf(query);
  // One letter matches nearly every lead and says nothing yet; a lead number may be one digit.
  if (query.length < 2 && id === null) return empty;
  const fold = /[^\p{ASCII}]/u.test(query) ? sql.raw("unicode_lower") : sql.raw("lower");
  const pattern = containsPattern(query);

  const leadsQuery = async (): Promise<LeadHit[]> => {
    const base = db
      .selectFrom("leads")
      .select([
        "leads.id",
        "leads.fullName",
        "leads.company",
        "leads.email",
        "leads.status",
        "leads.createdAt",
      ]);
    const matching =
      id === null
        ? filterLeads(base, { q: query, spam: "exclude" })
        : // A number is a lead's id first (spam included: someone may paste one from an email), and
          // otherwise text in a phone-less search (a company like "3M").
          base
            .where("leads.anonymisedAt", "is", null)
            .where((eb) =>
              eb.or([
                eb("leads.id", "=", id),
                eb.and([
                  eb("leads.isSpam", "=", 0),
                  eb.or([
                    eb(sql`${fold}(leads.full_name)`, "like", sql`${pattern} escape '\\'`),
                    eb(sql`${fold}(leads.email)`, "like", sql`${pattern} escape '\\'`),
                    eb(sql`${fold}(leads.company)`, "like", sql`${pattern} escape '\\'`),
                  ]),
                ]),
              ]),
            );
    const rows = await (id === null
      ? matching
      : matching.orderBy(sql`case when leads.id = ${id} then 0 else 1 end`)
    )
      .orderBy("leads.createdAt", "desc")
      .orderBy("leads.id", "desc")
      .limit(GROUP_LIMIT)
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      fullName: row.fullName,
      company: row.company,
      email: row.email,
      status: row.status,
      createdAt: row.createdAt,
      href: leadHref(Number(row.id)),
    }));
  };

  const peopleQuery = async (): Promise<PersonHit[]> => {
    const rows = await db
      .selectFrom("leads")
      .select((eb) => [
        "leads.emailKey",
        eb.fn.max("leads.email").as("email"),
        eb.fn.max("leads.fullName").as("fullName"),
        eb.fn.countAll().as("leads"),
        eb.fn.max("leads.createdAt").as("latest"),
      ])
      .where("leads.isSpam", "=", 0)
      .where("leads.anonymisedAt", "is", null)
      .where((eb) =>
        eb.or([
          eb(sql`${fold}(leads.full_name)`, "like", sql`${pattern} escape '\\'`),
          eb(sql`${fold}(leads.email)`, "like", sql`${pattern} escape '\\'`),
        ]),
      )
      .groupBy("leads.emailKey")
      .orderBy("latest", "desc")
      .limit(GROUP_LIMIT)
      .execute();
    return rows.map((row) => ({
      email: String(row.email),
      fullName: String(row.fullName),
      leads: Number(row.leads),
      href: `${PEOPLE_PATH}?${new URLSearchParams({ email: String(row.email) })}`,
    }));
  };

  const companiesQuery = async (): Promise<CompanyHit[]> => {
    const rows = await db
      .selectFrom("leads")
      .select((eb) => [
        "leads.companyKey",
        eb.fn.max("leads.company").as("company"),
        eb.fn.countAll().as("leads"),
      ])
      .where("leads.isSpam", "=", 0)
      .where("leads.anonymisedAt", "is", null)
      .where("leads.company", "<>", "")
      .where(sql`${fold}(leads.company)`, "like", sql`${pattern} escape '\\'`)
      .groupBy("leads.companyKey")
      .orderBy("leads", "desc")
      .orderBy("leads.companyKey")
      .limit(GROUP_LIMIT)
      .execute();
    return rows.map((row) => ({
      company: String(row.company),
      leads: Number(row.leads),
      href: `${DASHBOARD_PATH}?${new URLSearchParams({ q: String(row.company).slice(0, MAX_QUERY_LENGTH) })}`,
    }));
  };

  const [leads, people, companies] = await Promise.all([leadsQuery(), peopleQuery(), companiesQuery()]);
  return { query, leads, people, companies };
}
