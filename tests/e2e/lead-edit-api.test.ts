import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { ERASED_VALUE, WITHHELD_VALUE } from "../../app/features/leads/lead-contact-schema.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { checkPostgres, createPostgresSchema } from "../support/databases.ts";
import { createAccount, signIn } from "./support/accounts.ts";

// Issue 35: PATCH /api/admin/leads/:id takes the contact fields, validated as the lead's own form
// validates them, each change on the lead's timeline; status, owner and spam work as before. Once on
// SQLite and once on PostgreSQL, against the production server.

const PASSWORD = "Edit-Api-Password-01";

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`PATCH /api/admin/leads/:id contact fields [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    let server: RunningServer;
    let database: AppDatabase;
    let cleanup: () => Promise<void>;
    let cookie = "";

    beforeAll(async () => {
      if (!available) return;
      let databaseUrl: string;
      if (kind === "sqlite") {
        const dir = mkdtempSync(join(tmpdir(), "lead-edit-api-"));
        databaseUrl = join(dir, "app.sqlite");
        cleanup = async () => rmSync(dir, { recursive: true, force: true });
      } else {
        const schema = await createPostgresSchema();
        databaseUrl = schema.url;
        cleanup = schema.drop;
      }
      server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: "error", LEAD_RATE_LIMIT: "0" });
      await createAccount(databaseUrl, { username: "alice", password: PASSWORD, isAdmin: true });
      database = openDatabase(databaseUrl, { poolSize: 1 });
      cookie = await signIn(server.url, "alice", PASSWORD);
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
      await database?.close();
      await cleanup?.();
    });

    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: {
          Cookie: cookie,
          Origin: server.url,
          Accept: "application/json",
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const submit = async (body: Record<string, unknown>) => {
      const response = await fetch(`${server.url}/api/demo-request`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          fullName: "Amara Okafor",
          company: "Okafor Build",
          phone: "+44 20 7946 0958",
          ...body,
        }),
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: number }).id;
    };
    type Detail = {
      phone: string;
      email: string;
      status: string;
      otherSubmissions: { id: number }[];
      timeline: { kind: string; actor: string | null; changes?: unknown }[];
    };
    const detail = async (id: number) =>
      (await (await call("GET", `/api/admin/leads/${id}`)).json()) as Detail;

    describe.skipIf(!available)("", () => {
      it("changes contact fields with the status in one call, each on the timeline", async () => {
        const id = await submit({ email: "amara@okafor.example" });
        const response = await call("PATCH", `/api/admin/leads/${id}`, {
          phone: "+44 20 7946 0000",
          message: "Wants a call on Thursday",
          status: "contacted",
        });
        expect(response.status).toBe(200);
        await expect(response.json()).resolves.toMatchObject({
          phone: "+44 20 7946 0000",
          message: "Wants a call on Thursday",
          status: "contacted",
        });
        const { timeline } = await detail(id);
        expect(
          timeline
            .map((entry) => entry.kind)
            .slice(0, 2)
            .sort(),
        ).toEqual(["contact_changed", "status"]);
        expect(timeline.find((entry) => entry.kind === "contact_changed")).toMatchObject({
          actor: "alice",
          changes: [
            { field: "phone", from: "+44 20 7946 0958", to: "+44 20 7946 0000" },
            { field: "message", from: null, to: "Wants a call on Thursday" },
          ],
        });
      });

      it("refuses invalid fields with each field's message, changing nothing", async () => {
        const id = await submit({ email: "refused@okafor.example" });
        const response = await call("PATCH", `/api/admin/leads/${id}`, {
          phone: "call me",
          email: "nobody",
          company: "",
          status: "customer",
        });
        expect(response.status).toBe(400);
        await expect(response.json()).resolves.toEqual({
          message: "Please check the highlighted fields",
          errors: {
            phone: "Please enter a valid phone number",
            email: "Please enter a valid email address",
            company: "Please enter your company name",
          },
        });
        const stored = await detail(id);
        expect(stored).toMatchObject({ phone: "+44 20 7946 0958", status: "new" });
        expect(stored.timeline.map((entry) => entry.kind)).toEqual(["submitted"]);
        const empty = await call("PATCH", `/api/admin/leads/${id}`, {});
        expect(empty.status).toBe(400);
        await expect(empty.json()).resolves.toMatchObject({
          message: "Send at least one of status, ownerId, spam, fullName, email, company, phone, message.",
        });
        expect((await call("PATCH", "/api/admin/leads/999999", { phone: "+44 20 7946 0000" })).status).toBe(
          404,
        );
      });

      it("saves nothing of a change whose owner is refused: all or nothing", async () => {
        const id = await submit({ email: "partial@okafor.example" });
        const gone = await createUser(database.db, { username: "gone", password: PASSWORD, role: "sales" });
        await database.db.updateTable("users").set({ disabled: 1 }).where("id", "=", gone.id).execute();
        // An unknown staff member, and a disabled one: refused after the contact edit was applied.
        for (const ownerId of [999_999, gone.id]) {
          const response = await call("PATCH", `/api/admin/leads/${id}`, {
            phone: "+44 20 7946 0000",
            status: "qualified",
            ownerId,
          });
          expect(response.status).toBe(400);
          await expect(response.json()).resolves.toEqual({
            message: "Choose an enabled staff member whose role works on leads (or Unassigned).",
            errors: { ownerId: "Choose an enabled staff member whose role works on leads (or Unassigned)." },
          });
        }
        // Neither the phone nor the status: the lead and its timeline are as they were.
        const stored = await detail(id);
        expect(stored).toMatchObject({ phone: "+44 20 7946 0958", status: "new" });
        expect(stored.timeline.map((entry) => entry.kind)).toEqual(["submitted"]);
        // The same change with a real owner: every part, each on the timeline.
        const owner = Number(
          (
            await database.db
              .selectFrom("users")
              .select("id")
              .where("username", "=", "alice")
              .executeTakeFirstOrThrow()
          ).id,
        );
        const accepted = await call("PATCH", `/api/admin/leads/${id}`, {
          phone: "+44 20 7946 0000",
          status: "qualified",
          ownerId: owner,
        });
        expect(accepted.status).toBe(200);
        await expect(accepted.json()).resolves.toMatchObject({
          phone: "+44 20 7946 0000",
          status: "qualified",
          ownerId: owner,
        });
        expect(
          (await detail(id)).timeline
            .map((entry) => entry.kind)
            .filter((kind) => kind !== "submitted")
            .sort(),
        ).toEqual(["contact_changed", "owner_changed", "status"]);
      });

      it("moves the lead to its new address's person, and refuses an address erased on request", async () => {
        const first = await submit({ email: "first@okafor.example" });
        const moved = await submit({ email: "first@okafor.example" });
        const target = await submit({ email: "target@okafor.example" });
        expect((await detail(first)).otherSubmissions.map((lead) => lead.id)).toEqual([moved]);
        const response = await call("PATCH", `/api/admin/leads/${moved}`, { email: "Target@Okafor.example" });
        expect(response.status).toBe(200);
        expect((await detail(first)).otherSubmissions).toEqual([]);
        expect((await detail(target)).otherSubmissions.map((lead) => lead.id)).toEqual([moved]);

        const erased = await submit({ email: "erased@okafor.example" });
        expect((await call("DELETE", "/api/admin/people?email=erased%40okafor.example")).status).toBe(204);
        expect(await database.db.selectFrom("leads").select("id").where("id", "=", erased).execute()).toEqual(
          [],
        );
        const refused = await call("PATCH", `/api/admin/leads/${first}`, { email: "ERASED@okafor.example" });
        expect(refused.status).toBe(400);
        await expect(refused.json()).resolves.toMatchObject({
          errors: { email: expect.stringMatching(/erased on request/) },
        });
        expect((await detail(first)).email).toBe("first@okafor.example");
      });

      it("leaves a replaced address to its holder's export and erasure, which take it off the lead", async () => {
        const id = await submit({ email: "old.holder@okafor.example" });
        const moved = await call("PATCH", `/api/admin/leads/${id}`, { email: "new.holder@okafor.example" });
        expect(moved.status).toBe(200);

        // Subject access: the fact and the entry naming the address; the lead's new person withheld.
        const exported = await call("GET", "/api/admin/people?email=Old.Holder%40okafor.example");
        expect(exported.status).toBe(200);
        const person = (await exported.json()) as Record<string, unknown>;
        expect(person).toMatchObject({
          leads: [],
          timeline: [],
          formerly: [
            {
              leadId: id,
              field: "email",
              replacedAt: [expect.any(String)],
              timeline: [
                {
                  kind: "contact_changed",
                  actor: "alice",
                  changes: [{ field: "email", from: "old.holder@okafor.example", to: WITHHELD_VALUE }],
                },
              ],
            },
          ],
          erasedBefore: null,
        });
        expect(JSON.stringify(person)).not.toMatch(/new\.holder|Amara|7946/);

        // The page says so, names the lead by number only, and offers to erase the address.
        const page = await fetch(`${server.url}/admin/people?email=old.holder%40okafor.example`, {
          headers: { Cookie: cookie },
        });
        const html = await page.text();
        expect(html).toContain("Formerly on other leads");
        // (React marks the join of the text and the number with a comment.)
        expect(html).toMatch(new RegExp(`Lead #(<!-- -->)?${id}<`));
        expect(html).toContain("Erase this address");
        expect(html).not.toMatch(/new\.holder|Amara/);

        // Erasure: the lead stays with its person; its timeline keeps the change, not the address.
        expect((await call("DELETE", "/api/admin/people?email=old.holder%40okafor.example")).status).toBe(
          204,
        );
        const after = await detail(id);
        expect(after.email).toBe("new.holder@okafor.example");
        expect(after.timeline.find((entry) => entry.kind === "contact_changed")).toMatchObject({
          changes: [{ field: "email", from: ERASED_VALUE, to: "new.holder@okafor.example" }],
        });
        const again = await call("GET", "/api/admin/people?email=old.holder%40okafor.example");
        await expect(again.json()).resolves.toMatchObject({
          leads: [],
          formerly: [],
          erasedBefore: expect.any(String),
        });
        // Erased a second time: nothing is held any more.
        expect((await call("DELETE", "/api/admin/people?email=old.holder%40okafor.example")).status).toBe(
          404,
        );
      });

      it("keeps an investor lead to the investor form's rules", async () => {
        const id = await submit({
          requestType: "investor",
          email: "investor@okafor.example",
          investorType: { angel: true, vc: false, introducer: false, other: false },
        });
        const short = await call("PATCH", `/api/admin/leads/${id}`, { fullName: "A" });
        expect(short.status).toBe(400);
        await expect(short.json()).resolves.toMatchObject({
          errors: { fullName: "Full name must be at least 2 characters" },
        });
        const types = await call("PATCH", `/api/admin/leads/${id}`, {
          investorType: { angel: false, vc: true, introducer: false, other: true },
          otherDetails: "Family office",
        });
        expect(types.status).toBe(200);
        await expect(types.json()).resolves.toMatchObject({
          investorType: { angel: false, vc: true, introducer: false, other: true },
          otherDetails: "Family office",
        });
      });
    });
  });
}
