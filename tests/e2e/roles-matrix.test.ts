import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "#app/lib/permissions.ts";
import { loadAppSecret } from "../../app/db/app-secret.server.ts";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { totpCode, twoFactorKeys } from "../../app/features/auth/two-factor.server.ts";
import { confirmEnrolment, enrolmentSecret } from "../../app/features/auth/two-factor-store.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { checkPostgres, createPostgresSchema } from "../support/databases.ts";
import { leadRow } from "../support/lead-rows.ts";
import { signIn } from "./support/accounts.ts";

// Issue 23: every back-office page, page action and /api/admin/* call × every kind of caller, with
// the answer each must get, against the production server on SQLite and on PostgreSQL. Which roles
// may do what is written out here row by row from the issue (not read from permissions.ts), so the
// table in code is checked against the product's rule. The calls that change something name a
// record that does not exist or send an invalid body: an admitted caller gets the handler's own 4xx
// (it was let through), a refused one the guard's answer, and nothing changes between rows. A
// marketer's answers never carry a lead's personal data.

const PASSWORD = "roles matrix passphrase";
const ACCOUNTS = {
  admin: "rm-admin",
  sales: "rm-sales",
  marketing: "rm-marketing",
  disabled: "rm-disabled",
  pending: "rm-pending",
} as const;
const LEAD_SECRETS = ["Rosa Rolesmatrix", "rosa.rolesmatrix@secret-lead.example", "+44 20 7946 0777"];
const NO_SUCH_ID = 987654;
const NO_SUCH_SESSION = "0123456789abcdef01234567";
/** A post every server has: the first file of content/, imported at start-up. */
const IMPORTED_POST = 1;

const CALLERS = [
  "anonymous",
  "admin",
  "sales",
  "marketing",
  "disabled account",
  "pending two-factor",
] as const;
type Caller = (typeof CALLERS)[number];
/** Callers with no session the server accepts: answered as signed out. */
const SIGNED_OUT: readonly Caller[] = ["anonymous", "disabled account", "pending two-factor"];

type Answer = { status: number; location?: string };
/** The guard let the call through: the handler's own answer, neither a refusal nor a redirect away. */
const PASSES = "passes" as const;

type Row = {
  name: string;
  method: string;
  path: (leadId: number) => string;
  json?: unknown;
  form?: Record<string, string>;
  /** The roles the issue lets do this. */
  roles: readonly Role[];
  /** What an admitted caller gets. */
  allowed: Answer | typeof PASSES;
};

const ALL: readonly Role[] = ["admin", "sales", "marketing"];
const ADMIN: readonly Role[] = ["admin"];
const LEADS: readonly Role[] = ["admin", "sales"];
const AUDITS: readonly Role[] = ["admin", "marketing"];
/** The content studio (issue 24): marketing and admin write and publish; sales may not even read drafts. */
const CONTENT: readonly Role[] = ["admin", "marketing"];

const page = (path: string, roles: readonly Role[]): Row => ({
  name: `GET ${path}`,
  method: "GET",
  path: (id) => path.replace(":id", String(id)),
  roles,
  allowed: { status: 200 },
});
const post = (path: string, form: Record<string, string>, roles: readonly Role[]): Row => ({
  name: `POST ${path} (${form.intent ?? "form"})`,
  method: "POST",
  path: (id) => path.replace(":id", String(id)),
  form,
  roles,
  allowed: PASSES,
});
const api = (
  method: string,
  path: string,
  roles: readonly Role[],
  allowed: Answer | typeof PASSES,
  json?: unknown,
): Row => ({
  name: `${method} ${path}`,
  method,
  path: (id) => path.replace(":id", String(id)),
  json,
  roles,
  allowed,
});

const ROWS: Row[] = [
  // The pages (documents), each opened by the roles whose section it is.
  page("/admin/dashboard", LEADS),
  page("/admin/leads/:id", LEADS),
  page("/admin/people", ADMIN),
  page("/admin/analytics", ALL),
  page("/admin/audit", AUDITS),
  page("/admin/watches", AUDITS),
  page("/admin/staff", ADMIN),
  page("/admin/api-keys", ADMIN),
  page("/admin/webhooks", ADMIN),
  page("/admin/access-log", ADMIN),
  page("/admin/account", ALL),
  page("/admin/leads/new", LEADS),
  page("/admin/leads/import", LEADS),
  page("/admin/search", LEADS),
  // Issue 34: booked meetings, with the attendee's details (the leads' roles).
  page("/admin/meetings", LEADS),
  // Issue 35: one's own tasks (the roles that work leads).
  page("/admin/tasks", LEADS),
  // The content studio's pages (issue 24); post 1 is the first imported from content/ at start-up.
  page("/admin/content", CONTENT),
  page("/admin/content/new", CONTENT),
  page(`/admin/content/${IMPORTED_POST}`, CONTENT),
  page(`/admin/content/${IMPORTED_POST}/revisions`, CONTENT),
  // Their forms (the intents), with targets that do not exist or values that are refused.
  post("/admin/dashboard", { intent: "status", id: String(NO_SUCH_ID), status: "contacted" }, LEADS),
  post("/admin/dashboard", { intent: "bulk", ids: String(NO_SUCH_ID), do: "spam" }, LEADS),
  post("/admin/leads/:id", { intent: "note", body: "" }, LEADS),
  post("/admin/leads/:id", { intent: "owner", owner: String(NO_SUCH_ID) }, LEADS),
  post("/admin/leads/:id", { intent: "details", phone: "call me" }, LEADS),
  post("/admin/people", { email: "not an email" }, ADMIN),
  post("/admin/audit", { intent: "audit", url: "" }, AUDITS),
  post("/admin/watches", { intent: "create", url: "" }, AUDITS),
  post(`/admin/watches/${NO_SUCH_ID}`, { intent: "run" }, AUDITS),
  post("/admin/staff", { intent: "role", id: String(NO_SUCH_ID), role: "sales" }, ADMIN),
  post("/admin/staff", { intent: "create", username: "", role: "sales" }, ADMIN),
  post("/admin/api-keys", { intent: "create", name: "" }, ADMIN),
  post("/admin/webhooks", { intent: "delete", id: String(NO_SUCH_ID) }, ADMIN),
  post("/admin/account", { intent: "end", handle: NO_SUCH_SESSION }, ALL),
  post("/admin/leads/new", { fullName: "" }, LEADS),
  post("/admin/meetings", { intent: "outcome", id: String(NO_SUCH_ID), outcome: "held" }, LEADS),
  post("/admin/tasks", { intent: "task-done", taskId: String(NO_SUCH_ID), done: "true" }, LEADS),
  post("/admin/leads/:id", { intent: "activity", kind: "task", body: "" }, LEADS),
  // The studio's forms: a post without a title, a save on a revision that never was, a time that
  // is no time, a preview, a restore of a revision that does not exist.
  post("/admin/content/new", { intent: "save", title: "" }, CONTENT),
  post(`/admin/content/${IMPORTED_POST}`, { intent: "save", revision: "0", title: "" }, CONTENT),
  post(`/admin/content/${IMPORTED_POST}`, { intent: "schedule", revision: "1", publishAt: "soon" }, CONTENT),
  post(`/admin/content/${IMPORTED_POST}`, { intent: "preview", body: "# Preview" }, CONTENT),
  post(`/admin/content/${NO_SUCH_ID}`, { intent: "unpublish", revision: "1" }, CONTENT),
  post(`/admin/content/${NO_SUCH_ID}`, { intent: "delete" }, CONTENT),
  post(
    `/admin/content/${IMPORTED_POST}/revisions`,
    { intent: "restore", revision: String(NO_SUCH_ID), current: "1" },
    CONTENT,
  ),
  // The JSON API.
  api("GET", "/api/admin/leads", LEADS, { status: 200 }),
  api("GET", "/api/admin/leads/export", LEADS, { status: 200 }),
  api("GET", "/api/admin/leads/:id", LEADS, { status: 200 }),
  api("PATCH", `/api/admin/leads/${NO_SUCH_ID}`, LEADS, { status: 404 }, { status: "contacted" }),
  api("DELETE", `/api/admin/leads/${NO_SUCH_ID}`, LEADS, { status: 404 }),
  api("POST", `/api/admin/leads/${NO_SUCH_ID}/notes`, LEADS, { status: 404 }, { body: "A note" }),
  api(
    "POST",
    `/api/admin/leads/${NO_SUCH_ID}/activities`,
    LEADS,
    { status: 404 },
    { kind: "email", body: "Hi" },
  ),
  api("GET", "/api/admin/tasks?mine=1", LEADS, { status: 200 }),
  // Everyone's tasks: the team's lead (admin) only.
  api("GET", "/api/admin/tasks?state=open", ADMIN, { status: 200 }),
  api("PATCH", `/api/admin/tasks/${NO_SUCH_ID}`, LEADS, { status: 404 }, { done: true }),
  api("POST", "/api/admin/leads/bulk", LEADS, PASSES, { ids: [NO_SUCH_ID], action: "spam", value: true }),
  api("POST", "/api/admin/leads", LEADS, { status: 400 }, { fullName: "" }),
  api("POST", "/api/admin/leads/import", LEADS, PASSES, {}),
  api("GET", "/api/admin/search?q=okafor", LEADS, { status: 200 }),
  api("GET", "/api/admin/meetings?when=past", LEADS, { status: 200 }),
  api("PATCH", `/api/admin/meetings/${NO_SUCH_ID}`, LEADS, { status: 404 }, { outcome: "held" }),
  api("GET", "/api/admin/analytics", ALL, { status: 200 }),
  api("GET", "/api/admin/security-audits", AUDITS, { status: 200 }),
  api("POST", "/api/admin/security-audit", AUDITS, { status: 400 }, { url: "" }),
  api("POST", "/api/admin/performance-check", AUDITS, PASSES, { url: "" }),
  api("POST", "/api/admin/tls-check", AUDITS, { status: 400 }, { url: "" }),
  api("GET", "/api/admin/watches", AUDITS, { status: 200 }),
  api("POST", "/api/admin/watches", AUDITS, { status: 400 }, { url: "" }),
  api("GET", `/api/admin/watches/${NO_SUCH_ID}`, AUDITS, { status: 404 }),
  api("PATCH", `/api/admin/watches/${NO_SUCH_ID}`, AUDITS, { status: 404 }, { paused: true }),
  api("DELETE", `/api/admin/watches/${NO_SUCH_ID}`, AUDITS, { status: 404 }),
  api("POST", `/api/admin/watches/${NO_SUCH_ID}/run`, AUDITS, { status: 404 }, {}),
  api("GET", "/api/admin/posts", CONTENT, { status: 200 }),
  api("POST", "/api/admin/posts", CONTENT, { status: 400 }, { kind: "article", title: "" }),
  api("GET", `/api/admin/posts/${NO_SUCH_ID}`, CONTENT, { status: 404 }),
  api("PATCH", `/api/admin/posts/${NO_SUCH_ID}`, CONTENT, { status: 404 }, { revision: 1, title: "A title" }),
  api("DELETE", `/api/admin/posts/${NO_SUCH_ID}`, CONTENT, { status: 404 }),
  api("POST", `/api/admin/posts/${NO_SUCH_ID}/publish`, CONTENT, { status: 404 }, {}),
  api("POST", `/api/admin/posts/${NO_SUCH_ID}/unpublish`, CONTENT, { status: 404 }, {}),
  api("GET", `/api/admin/posts/${NO_SUCH_ID}/revisions`, CONTENT, { status: 404 }),
  api("POST", `/api/admin/posts/${NO_SUCH_ID}/revisions/1/restore`, CONTENT, { status: 404 }, {}),
  api("GET", "/api/admin/people?email=nobody%40nowhere.example", ADMIN, { status: 404 }),
  api("DELETE", "/api/admin/people?email=nobody%40nowhere.example", ADMIN, { status: 404 }),
  api("GET", "/api/admin/users", ADMIN, { status: 200 }),
  api("POST", "/api/admin/users", ADMIN, { status: 400 }, { username: "", role: "sales" }),
  api("PATCH", `/api/admin/users/${NO_SUCH_ID}`, ADMIN, { status: 404 }, { role: "sales" }),
  api("DELETE", `/api/admin/users/${NO_SUCH_ID}/sessions`, ADMIN, { status: 404 }),
  api("DELETE", `/api/admin/users/${NO_SUCH_ID}/two-factor`, ADMIN, { status: 404 }),
  api("GET", "/api/admin/sessions", ALL, { status: 200 }),
  api("DELETE", `/api/admin/sessions/${NO_SUCH_SESSION}`, ALL, { status: 404 }),
  api("GET", "/api/admin/access-log", ADMIN, { status: 200 }),
  api("GET", "/api/admin/api-keys", ADMIN, { status: 200 }),
  api("POST", "/api/admin/api-keys", ADMIN, { status: 400 }, { name: "" }),
  api("DELETE", `/api/admin/api-keys/${NO_SUCH_ID}`, ADMIN, { status: 404 }),
  api("GET", "/api/admin/webhooks", ADMIN, { status: 200 }),
  api("POST", "/api/admin/webhooks", ADMIN, { status: 400 }, { url: "" }),
  api("DELETE", `/api/admin/webhooks/${NO_SUCH_ID}`, ADMIN, { status: 404 }),
  api("GET", `/api/admin/webhooks/${NO_SUCH_ID}/deliveries`, ADMIN, { status: 404 }),
  api("POST", `/api/admin/webhooks/${NO_SUCH_ID}/test`, ADMIN, { status: 404 }),
  api("POST", `/api/admin/webhooks/${NO_SUCH_ID}/rotate-secret`, ADMIN, { status: 404 }),
  // The content studio's media library (issue 24); an upload sent as JSON gets the handler's 415.
  api("GET", "/api/admin/media", CONTENT, { status: 200 }),
  api("POST", "/api/admin/media", CONTENT, { status: 415 }, {}),
  api("GET", `/api/admin/media/${NO_SUCH_ID}`, CONTENT, { status: 404 }),
  api("PATCH", `/api/admin/media/${NO_SUCH_ID}`, CONTENT, { status: 404 }, { alt: "A crane" }),
  api("DELETE", `/api/admin/media/${NO_SUCH_ID}`, CONTENT, { status: 404 }),
];

const roleOf = (caller: Caller): Role | null =>
  caller === "admin" || caller === "sales" || caller === "marketing" ? caller : null;

/** The answer `caller` must get for `row`. */
function expected(row: Row, caller: Caller, leadId: number): Answer | typeof PASSES {
  const isApi = row.name.includes(" /api/");
  if (SIGNED_OUT.includes(caller)) {
    if (isApi) return { status: 401 };
    const path = row.path(leadId).split("?")[0] ?? "";
    return { status: 302, location: `/admin/login?next=${encodeURIComponent(path)}` };
  }
  const role = roleOf(caller);
  if (role && row.roles.includes(role)) return row.allowed;
  // SPEC section 2: a signed-in person without the right is sent home; the API says 403.
  return isApi ? { status: 403 } : { status: 302, location: "/" };
}

type Target = {
  server: RunningServer;
  database: AppDatabase;
  leadId: number;
  cookies: Record<Exclude<Caller, "anonymous">, string>;
  cleanup(): Promise<void>;
};

async function startTarget(kind: "sqlite" | "postgres"): Promise<Target> {
  let databaseUrl: string;
  let drop: () => Promise<void>;
  if (kind === "postgres") {
    const schema = await createPostgresSchema();
    databaseUrl = schema.url;
    drop = schema.drop;
  } else {
    const dir = mkdtempSync(join(tmpdir(), "roles-matrix-"));
    databaseUrl = join(dir, "roles.sqlite");
    drop = async () => rmSync(dir, { recursive: true, force: true });
  }
  const server = await startServer({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "error",
    ADMIN_USERNAME: ACCOUNTS.admin,
    ADMIN_PASSWORD: PASSWORD,
  });
  const database = openDatabase(databaseUrl, { poolSize: 2 });
  const db = database.db;
  await createUser(db, { username: ACCOUNTS.sales, password: PASSWORD, role: "sales" });
  await createUser(db, { username: ACCOUNTS.marketing, password: PASSWORD, role: "marketing" });
  await createUser(db, { username: ACCOUNTS.disabled, password: PASSWORD, role: "admin" });
  const pending = await createUser(db, { username: ACCOUNTS.pending, password: PASSWORD, role: "admin" });
  // Two-factor sign-in on for one admin: the password alone gives only a pending login.
  const keys = twoFactorKeys(await loadAppSecret(db, undefined));
  const secret = await enrolmentSecret(db, keys, pending.id);
  await confirmEnrolment(db, keys, pending, totpCode(secret, Date.now() - 30_000));
  const lead = await db
    .insertInto("leads")
    .values(
      leadRow({
        fullName: LEAD_SECRETS[0],
        email: LEAD_SECRETS[1],
        phone: LEAD_SECRETS[2],
        company: "Matrix Builds Ltd",
      }),
    )
    .returning("id")
    .executeTakeFirstOrThrow();

  const url = server.url;
  const [admin, sales, marketing, disabled] = await Promise.all(
    (["admin", "sales", "marketing", "disabled"] as const).map((name) =>
      signIn(url, ACCOUNTS[name], PASSWORD),
    ),
  );
  // Signed in, then disabled (as if on another instance while the session was in use).
  await db.updateTable("users").set({ disabled: 1 }).where("username", "=", ACCOUNTS.disabled).execute();
  const passwordStep = await fetch(`${url}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: ACCOUNTS.pending, password: PASSWORD }),
  });
  expect(await passwordStep.json()).toMatchObject({ twoFactorRequired: true });
  const pendingCookie = passwordStep.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
  expect(pendingCookie).toMatch(/^pending_login=/);
  return {
    server,
    database,
    leadId: Number(lead.id),
    cookies: {
      admin: admin ?? "",
      sales: sales ?? "",
      marketing: marketing ?? "",
      "disabled account": disabled ?? "",
      "pending two-factor": pendingCookie,
    },
    async cleanup() {
      await server.stop();
      await database.close();
      await drop();
    },
  };
}

/** Runs `work` over `items`, `limit` at a time: a few requests in flight, not hundreds. */
async function inBatches<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += limit)
    await Promise.all(items.slice(start, start + limit).map(work));
}

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`roles matrix [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    let target: Target;
    beforeAll(async () => {
      if (!available) return;
      target = await startTarget(kind);
    }, 90_000);
    afterAll(async () => {
      await target?.cleanup();
    });

    async function ask(row: Row, caller: Caller) {
      const { method, json, form } = row;
      const cookie = caller === "anonymous" ? undefined : target.cookies[caller];
      const response = await fetch(`${target.server.url}${row.path(target.leadId)}`, {
        method,
        redirect: "manual",
        headers: {
          ...(cookie ? { Cookie: cookie } : {}),
          ...(json ? { "Content-Type": "application/json" } : {}),
          ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
        },
        body: json ? JSON.stringify(json) : form ? new URLSearchParams(form).toString() : undefined,
      });
      return {
        status: response.status,
        location: response.headers.get("location"),
        body: await response.text(),
      };
    }

    it.skipIf(!available)(
      "answers every back-office route, action and API as the roles allow, to every caller",
      async () => {
        const failures: string[] = [];
        const cells = ROWS.flatMap((row) => CALLERS.map((caller) => ({ row, caller })));
        await inBatches(cells, 6, async ({ row, caller }) => {
          const got = await ask(row, caller);
          const want = expected(row, caller, target.leadId);
          const cell = `${row.name} × ${caller}`;
          if (want === PASSES) {
            const refused =
              got.status === 401 ||
              got.status === 403 ||
              (got.status === 302 && (got.location === "/" || got.location?.startsWith("/admin/login")));
            if (refused || got.status >= 500)
              failures.push(`${cell}: refused or failed with ${got.status} ${got.location ?? ""}`);
          } else if (
            got.status !== want.status ||
            (want.location !== undefined && got.location !== want.location)
          ) {
            failures.push(
              `${cell}: want ${want.status} ${want.location ?? ""}, got ${got.status} ${got.location ?? ""} ${got.body.slice(0, 120)}`,
            );
          }
          // Leads only as counts for marketing: not one of the lead's personal details, anywhere.
          if (caller === "marketing" && LEAD_SECRETS.some((secret) => got.body.includes(secret)))
            failures.push(`${cell}: a lead's personal data in a marketer's answer`);
        });
        expect(failures).toEqual([]);
        expect(cells.length).toBe(ROWS.length * CALLERS.length);
      },
      120_000,
    );

    it.skipIf(!available)(
      "names the role in GET /api/user, isAdmin true for admin and sales only",
      async () => {
        const user = async (caller: Caller) => {
          const got = await ask({ ...page("/api/user", ALL), method: "GET" }, caller);
          return got.status === 200 ? JSON.parse(got.body) : got.status;
        };
        expect(await user("admin")).toMatchObject({ username: ACCOUNTS.admin, role: "admin", isAdmin: true });
        expect(await user("sales")).toMatchObject({ username: ACCOUNTS.sales, role: "sales", isAdmin: true });
        expect(await user("marketing")).toMatchObject({
          username: ACCOUNTS.marketing,
          role: "marketing",
          isAdmin: false,
        });
        for (const caller of SIGNED_OUT) expect(await user(caller)).toBe(401);
      },
    );

    it.skipIf(!available)(
      "sends /admin to each role's home, and a marketer's data request for the dashboard home",
      async () => {
        const index = async (caller: Caller) => (await ask(page("/admin", ALL), caller)).location;
        expect(await index("admin")).toBe("/admin/dashboard");
        expect(await index("sales")).toBe("/admin/dashboard");
        expect(await index("marketing")).toBe("/admin/analytics");
        expect(await index("anonymous")).toBe("/admin/dashboard");
        // A client-side navigation gets the redirect inside its answer.
        const data = await ask(page("/admin/dashboard.data", ALL), "marketing");
        expect(data.status).toBe(202);
        expect(data.body).toMatch(/"redirect","\/"/);
        expect(LEAD_SECRETS.some((secret) => data.body.includes(secret))).toBe(false);
      },
    );

    it.skipIf(!available)(
      "applies a role change from the very next request of a session already open, and logs it",
      async () => {
        const adminCookie = target.cookies.admin;
        const salesCookie = target.cookies.sales;
        const salesId = Number(
          (
            await target.database.db
              .selectFrom("users")
              .select("id")
              .where("username", "=", ACCOUNTS.sales)
              .executeTakeFirstOrThrow()
          ).id,
        );
        const change = (role: Role) =>
          fetch(`${target.server.url}/api/admin/users/${salesId}`, {
            method: "PATCH",
            headers: { Cookie: adminCookie, "Content-Type": "application/json" },
            body: JSON.stringify({ role }),
          });
        const leads = () =>
          fetch(`${target.server.url}/api/admin/leads`, { headers: { Cookie: salesCookie } }).then(
            (r) => r.status,
          );
        expect(await leads()).toBe(200);
        const demoted = await change("marketing");
        expect(demoted.status).toBe(200);
        expect(await demoted.json()).toMatchObject({ id: salesId, role: "marketing", isAdmin: false });
        expect(await leads()).toBe(403);
        expect((await change("sales")).status).toBe(200);
        expect(await leads()).toBe(200);
        const log = await fetch(`${target.server.url}/api/admin/access-log?kind=accounts`, {
          headers: { Cookie: adminCookie },
        }).then(
          (r) => r.json() as Promise<{ entries: { action: string; subject: string; detail: unknown }[] }>,
        );
        expect(
          log.entries.filter((entry) => entry.action === "staff_role_changed").map((entry) => entry.detail),
        ).toEqual([
          { from: "marketing", to: "sales" },
          { from: "sales", to: "marketing" },
        ]);
        // An unknown role is refused, and so is taking the admin role from the last admin who can sign in.
        const bad = await change("owner" as Role);
        expect(bad.status).toBe(400);
        const adminId = Number(
          (
            await target.database.db
              .selectFrom("users")
              .select("id")
              .where("username", "=", ACCOUNTS.admin)
              .executeTakeFirstOrThrow()
          ).id,
        );
        // The pending account is an admin too (it can sign in): disable it, so rm-admin is the last.
        await target.database.db
          .updateTable("users")
          .set({ disabled: 1 })
          .where("username", "=", ACCOUNTS.pending)
          .execute();
        try {
          const last = await fetch(`${target.server.url}/api/admin/users/${adminId}`, {
            method: "PATCH",
            headers: { Cookie: adminCookie, "Content-Type": "application/json" },
            body: JSON.stringify({ role: "sales" }),
          });
          expect(last.status).toBe(409);
        } finally {
          await target.database.db
            .updateTable("users")
            .set({ disabled: 0 })
            .where("username", "=", ACCOUNTS.pending)
            .execute();
        }
      },
    );
  });
}
