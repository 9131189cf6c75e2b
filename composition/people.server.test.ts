import { beforeEach, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { createApiKey, findActiveApiKey } from "#app/features/leads/api-keys.server.ts";
import { createLeadAdmin } from "#app/features/leads/lead-admin.server.ts";
import { erasedOn, suppressionKey } from "#app/features/leads/lead-erasure.server.ts";
import { addNote } from "#app/features/leads/lead-notes.server.ts";
import type { LeadChange } from "#app/features/leads/lead-service.server.ts";
import { createLeadService } from "#app/features/leads/lead-service.server.ts";
import { findPerson } from "#app/features/people/people-http.server.ts";
import { listAccessLog, recordAccess } from "#app/lib/access-log.server.ts";
import { createRateLimiter } from "#app/lib/rate-limit.server.ts";
import { describeEachDatabase } from "../tests/support/databases.ts";
import { createPeopleLeads } from "./people-leads.server.ts";

// People's data rights on both databases: a subject-access record holds everything on one email
// (in any case), an erasure removes all of it in one go and keeps only the suppression record, and
// the person writing again is accepted through the site but refused through an API key.

const SECRET = "people-secret-people-secret-people-01";
const EMAIL = "Amara.Okafor@Okafor-Build.example";

describeEachDatabase("people's data", (use) => {
  const db = () => use().db;
  let staff: { id: number; username: string };
  const changes: LeadChange[] = [];
  const service = () =>
    createLeadService({
      db: db(),
      secret: SECRET,
      rateLimiter: createRateLimiter(db(), { limit: 0, windowMs: 60_000 }),
      apiKeyRateLimiter: undefined,
      notify: true,
      timeTrap: false,
    });
  const admin = () =>
    createLeadAdmin({
      db: db(),
      notify: true,
      onLeadChange: async (_trx, change) => {
        changes.push(change);
      },
    });
  const submit = (
    email: string,
    extra: Record<string, unknown> = {},
    apiKey?: { id: number; name: string },
  ) =>
    service().submit(
      { fullName: "Amara Okafor", company: "Okafor Build", phone: "+44 20 7946 0958", email, ...extra },
      { clientAddress: "192.0.2.1", timeToken: undefined, sourcePage: "/demo", source: "form", apiKey },
    );

  beforeEach(async () => {
    for (const table of [
      "leadNotes",
      "leadEvents",
      "leadStatusChanges",
      "outbox",
      "leads",
      "apiKeys",
      "accessLog",
      "erasureSuppressions",
    ] as const)
      await db().deleteFrom(table).execute();
    await db().deleteFrom("users").execute();
    staff = await createUser(db(), {
      username: "privacy-officer",
      password: "a long enough password",
      isAdmin: true,
    });
    changes.length = 0;
  });

  it("finds everything held on one email, in any letter case, and nothing of anyone else", async () => {
    const first = await submit(EMAIL);
    const second = await submit("  amara.okafor@okafor-build.EXAMPLE ", {
      requestType: "demo",
      message: "Again",
    });
    await submit("someone.else@example.com");
    if (first.kind !== "stored" || second.kind !== "stored") throw new Error("not stored");
    await addNote(db(), first.id, "Called her back", staff);

    const person = await findPerson(
      db(),
      createPeopleLeads(db(), SECRET),
      "AMARA.okafor@okafor-build.example",
    );
    expect(person?.leads.map((lead) => lead.id)).toEqual([first.id, second.id]);
    expect(person?.notes).toMatchObject([{ leadId: first.id, body: "Called her back" }]);
    expect(person?.timeline.filter((entry) => entry.kind === "submitted")).toHaveLength(2);
    // The sales notification queued for each (SMTP configured).
    expect(person?.messages).toMatchObject([
      { leadId: first.id, kind: "lead-notification", status: "pending" },
      { leadId: second.id, kind: "lead-notification", status: "pending" },
    ]);
    expect(JSON.stringify(person)).not.toContain("someone.else");
    expect(await findPerson(db(), createPeopleLeads(db(), SECRET), "nobody@example.com")).toBeNull();
  });

  it("erases all of a person at once, keeps only an HMAC of the email, and logs it by count", async () => {
    const first = await submit(EMAIL);
    const second = await submit(EMAIL.toLowerCase());
    const other = await submit("someone.else@example.com");
    if (first.kind !== "stored" || second.kind !== "stored" || other.kind !== "stored")
      throw new Error("not stored");
    await addNote(db(), first.id, "Called her back", staff);
    await recordAccess(db(), { action: "lead_erased", actor: staff, leadId: first.id });

    const erased = await admin().erasePerson({
      email: EMAIL,
      reason: "Asked by email",
      actor: staff,
      clientAddress: "203.0.113.5",
      secret: SECRET,
    });
    expect(erased).toEqual({ leads: 2, formerly: 0 });
    const left = await db().selectFrom("leads").select("id").execute();
    expect(left.map((row) => Number(row.id))).toEqual([other.id]);
    expect(await db().selectFrom("leadNotes").selectAll().execute()).toEqual([]);
    expect(
      await db().selectFrom("leadEvents").selectAll().where("leadId", "in", [first.id, second.id]).execute(),
    ).toEqual([]);
    // Only the other person's notification is still queued.
    const outbox = await db().selectFrom("outbox").select("payload").execute();
    expect(outbox.map((row) => row.payload)).toEqual([JSON.stringify({ leadId: other.id })]);
    // Webhooks hear of each erased lead.
    expect(changes.filter((change) => change.type === "lead.deleted").map((change) => change.leadId)).toEqual(
      [first.id, second.id],
    );
    // The suppression record: a keyed hash, the date, the reason; the email nowhere.
    const suppressions = await db().selectFrom("erasureSuppressions").selectAll().execute();
    expect(suppressions).toEqual([
      { emailHmac: suppressionKey(SECRET, EMAIL), erasedAt: expect.any(String), reason: "Asked by email" },
    ]);
    // The access log no longer names the erased leads, and records the erasure by count only.
    const log = await listAccessLog(db());
    expect(log.entries.map((entry) => entry.action)).toEqual(["person_erased"]);
    expect(log.entries[0]).toMatchObject({ actor: "privacy-officer", detail: { leads: 2 }, leadId: null });
    const everything = JSON.stringify([
      await db().selectFrom("erasureSuppressions").selectAll().execute(),
      await db().selectFrom("accessLog").selectAll().execute(),
      await db().selectFrom("outbox").selectAll().execute(),
    ]);
    expect(everything.toLowerCase()).not.toContain("okafor");

    // Looked up again: nothing held, but the record says they were erased.
    const after = await findPerson(db(), createPeopleLeads(db(), SECRET), EMAIL);
    expect(after).toMatchObject({ leads: [], erasedBefore: expect.any(String) });
  });

  it("accepts the person again through the site, marked, and refuses them through an API key", async () => {
    await submit(EMAIL);
    await admin().erasePerson({
      email: EMAIL,
      reason: "Asked",
      actor: staff,
      clientAddress: null,
      secret: SECRET,
    });
    const erasedAt = await erasedOn(db(), SECRET, EMAIL);
    expect(erasedAt).not.toBeNull();

    const created = await createApiKey(db(), "CRM sync", staff);
    const key = await findActiveApiKey(db(), created.key);
    if (!key) throw new Error("no key");
    expect(await submit(EMAIL.toUpperCase(), {}, key)).toEqual({ kind: "erased" });
    expect(await db().selectFrom("leads").select("id").execute()).toEqual([]);

    const back = await submit(EMAIL);
    if (back.kind !== "stored") throw new Error("not stored");
    const events = await db()
      .selectFrom("leadEvents")
      .select(["type", "detail"])
      .where("leadId", "=", back.id)
      .execute();
    expect(events).toEqual([{ type: "returned_after_erasure", detail: JSON.stringify({ erasedAt }) }]);
  });
});
