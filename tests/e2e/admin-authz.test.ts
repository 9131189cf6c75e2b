import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { createSession, hashToken } from "../../app/features/auth/sessions.server.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { checkPostgres, createPostgresSchema } from "../support/databases.ts";
import { leadRow } from "../support/lead-rows.ts";
import { createAccount, signIn } from "./support/accounts.ts";

// Who may do what in the back office, decided by the server: every admin endpoint and page, asked
// by each kind of caller, against production servers (server.ts and the build) on their own
// databases, SQLite and PostgreSQL. A refused answer carries no lead data and changes nothing.

const ADMIN = { username: "authz-admin", password: "authz admin passphrase" };
const STAFF = { username: "authz-staff", password: "authz staff passphrase" };
const POLICY = { idleMs: 30 * 60_000, absoluteMs: 8 * 3_600_000 };
const SESSION_ENV = { SESSION_IDLE_MINUTES: "30", SESSION_MAX_HOURS: "8" };
const EVIL = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
/** Text only the lead holds: none of it may appear in a refused answer. */
const LEAD_SECRETS = ["Leaky Leadperson", "leaky.leadperson@secret-lead.example", "Confidential Builds Ltd"];

let clientNumber = 0;
/** Each request speaks as its own client (the servers trust one proxy), so throttling stays apart. */
const newClient = () => `198.51.100.${(++clientNumber % 250) + 1}`;

type Target = {
  server: RunningServer;
  database: AppDatabase;
  databaseUrl: string;
  adminId: number;
  staffId: number;
  cleanup(): Promise<void>;
};

async function newDatabaseUrl(kind: "sqlite" | "postgres"): Promise<{ url: string; drop(): Promise<void> }> {
  if (kind === "postgres") {
    const schema = await createPostgresSchema();
    return { url: schema.url, drop: schema.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), "admin-authz-"));
  return { url: join(dir, "authz.sqlite"), drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

async function startTarget(kind: "sqlite" | "postgres"): Promise<Target> {
  const { url: databaseUrl, drop } = await newDatabaseUrl(kind);
  const server = await startServer({
    DATABASE_URL: databaseUrl,
    TRUST_PROXY: "1",
    LOG_LEVEL: "error",
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    ...SESSION_ENV,
  });
  await createAccount(databaseUrl, { ...STAFF, isAdmin: false });
  const database = openDatabase(databaseUrl, { poolSize: 2 });
  const users = await database.db.selectFrom("users").select(["id", "isAdmin"]).execute();
  const idOf = (admin: boolean) => Number(users.find((user) => Boolean(user.isAdmin) === admin)?.id);
  return {
    server,
    database,
    databaseUrl,
    adminId: idOf(true),
    staffId: idOf(false),
    async cleanup() {
      await server.stop();
      await database.close();
      await drop();
    },
  };
}

const WHO = [
  "anonymous",
  "non-admin",
  "admin",
  "idle-expired",
  "past absolute expiry",
  "forged cookie",
  "tampered cookie",
  "cross-origin",
] as const;
type Who = (typeof WHO)[number];

type Answer = {
  status: number[];
  /** The Location header, or for a data request the redirect inside its body. */
  location?: string | RegExp;
  /** Whether the answer carries the lead (only ever to an admin). */
  leadData?: boolean | "name and company";
  body?: RegExp;
};
type Row = {
  name: string;
  /**
   * `subject`: a lead's id, or for "user-disable" rows a staff account's; `webhookId` for webhook rows,
   * `apiKeyId` for API-key rows, `meetingId` for meeting rows (the lead's meeting).
   */
  request(
    subject: number,
    webhookId: number,
    apiKeyId: number,
    meetingId: number,
  ): { method: string; path: string; json?: unknown; form?: Record<string, string> };
  /**
   * What a successful call changes: checked when allowed, checked unchanged when refused. "lead" is
   * any change to the lead (owner, spam verdict, a note) with its record.
   */
  changes?:
    | "status"
    | "delete"
    | "session"
    | "user-create"
    | "user-disable"
    | "webhooks"
    | "lead"
    | "api-keys"
    | "meeting";
  expect: Record<Who, Answer>;
  /** The call never looks at the session (an expired one is then left for the pruning to delete). */
  ignoresSession?: boolean;
};

const ok = (status: number, extra: Omit<Answer, "status"> = {}): Answer => ({ status: [status], ...extra });
const toHome: Answer = { status: [302], location: /^\/$/ };

/** The JSON API: 401 without a valid session, 403 for a non-admin, and GETs are not state-changing. */
function apiRow(
  name: string,
  request: Row["request"],
  admin: Answer,
  options: { changes?: Row["changes"]; crossOrigin?: Answer } = {},
): Row {
  const unauthenticated = ok(401, { body: /^\{"message":"[^"]*"\}$/ });
  return {
    name,
    request,
    changes: options.changes,
    expect: {
      anonymous: unauthenticated,
      "non-admin": ok(403, { body: /^\{"message":"[^"]*"\}$/ }),
      admin,
      "idle-expired": unauthenticated,
      "past absolute expiry": unauthenticated,
      "forged cookie": unauthenticated,
      "tampered cookie": unauthenticated,
      // A GET changes nothing; the browser keeps its answer from the other site (no CORS headers).
      "cross-origin": options.crossOrigin ?? admin,
    },
  };
}

/** Admin pages: signed out → the login page (`next`: back here after), non-admin → home. */
function pageRow(
  name: string,
  request: Row["request"],
  next: string,
  admin: Answer,
  options: { changes?: Row["changes"]; crossOrigin?: Answer } = {},
): Row {
  const signedOut = { status: [302], location: new RegExp(`^/admin/login\\?next=${next}$`) };
  return {
    name,
    request,
    changes: options.changes,
    expect: {
      anonymous: signedOut,
      "non-admin": toHome,
      admin,
      "idle-expired": signedOut,
      "past absolute expiry": signedOut,
      "forged cookie": signedOut,
      "tampered cookie": signedOut,
      "cross-origin": options.crossOrigin ?? admin,
    },
  };
}

/** A data request (client-side navigation) gets its redirect inside a 202 body. */
function dataRow(
  name: string,
  path: (leadId: number) => string,
  admin: Answer = ok(200, { leadData: true }),
): Row {
  const redirectTo = (target: RegExp): Answer => ({ status: [202], body: target, leadData: false });
  const signedOut = redirectTo(/"redirect","\/admin\/login\?next=/);
  return {
    name,
    request: (leadId) => ({ method: "GET", path: `${path(leadId)}.data` }),
    expect: {
      anonymous: signedOut,
      "non-admin": redirectTo(/"redirect","\/"/),
      admin,
      "idle-expired": signedOut,
      "past absolute expiry": signedOut,
      "forged cookie": signedOut,
      "tampered cookie": signedOut,
      "cross-origin": admin,
    },
  };
}

// NOTE: a cross-site form post to a page is refused by React Router itself (400, its own Origin
// check) before our guard answers 403; either way nothing runs.
const CROSS_SITE_REFUSED: Answer = { status: [400, 403], leadData: false };

let newStaffNumber = 0;
let meetingTypeNumber = 0;
let apiKeyNumber = 0;
/** A list of API keys: names and prefixes, never a whole key. */
const NO_KEY_JSON = /^(?![\s\S]*cbk_[A-Za-z0-9_-]{20})\[/;
/** The admin's username in a staff page or list: what an admin sees there. */
const LISTS_ADMIN = new RegExp(`"?${ADMIN.username}"?`);

/** A receiver that never resolves (.invalid): deliveries the matrix queues fail at once, harmlessly. */
const WEBHOOK_URL = "https://hooks.invalid/authz";
/** A webhook list or log, without any secret. */
const NO_SECRET_JSON = /^(?![\s\S]*whsec_)\[/;
/** A well-formed session handle that names no session. */
const NO_SUCH_SESSION = "0123456789abcdef01234567";
const ONE_TIME_SECRET = /"secret":"whsec_|data-testid="webhook-secret"[^>]*>whsec_/;

/** A whole availability, as PUT /api/admin/availability takes it (issue 34). */
const AVAILABILITY = {
  timeZone: "Europe/London",
  weeklyHours: {
    mon: [{ start: "10:00", end: "16:00" }],
    tue: [],
    wed: [],
    thu: [],
    fri: [],
    sat: [],
    sun: [],
  },
  daysOff: [],
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  minimumNoticeMinutes: 120,
  horizonDays: 30,
  maxPerDay: 6,
};

// Issue 34: the hosts' availability, read and changed by the server's rules (a caller without a
// hosting role is refused; an admin's own here).
const AVAILABILITY_ROWS: Row[] = [
  apiRow(
    "GET /api/admin/availability",
    () => ({ method: "GET", path: "/api/admin/availability" }),
    ok(200, { body: /^\{"userId":\d+,"username":"authz-admin","isDefault":/ }),
  ),
  apiRow(
    "PUT /api/admin/availability",
    () => ({ method: "PUT", path: "/api/admin/availability", json: AVAILABILITY }),
    ok(200, { body: /"isDefault":false/ }),
    { crossOrigin: ok(403) },
  ),
  pageRow(
    "GET /admin/availability",
    () => ({ method: "GET", path: "/admin/availability" }),
    "%2Fadmin%2Favailability",
    ok(200),
  ),
  dataRow("GET /admin/availability.data", () => "/admin/availability", ok(200)),
  // The host's CalDAV calendar (issue 34): a loopback address is refused by the outbound policy
  // before any connection, so the PUT answers 400 with what is wrong and stores nothing.
  apiRow(
    "GET /api/admin/availability/calendar",
    () => ({ method: "GET", path: "/api/admin/availability/calendar" }),
    ok(200, {
      body: /^\{"userId":\d+,"calendar":null,"feedUrl":"http:\/\/[^"]+\/meetings\/feed\/\d+\.0\.[\w-]{22}\.ics"\}$/,
    }),
  ),
  apiRow(
    "PUT /api/admin/availability/calendar",
    () => ({
      method: "PUT",
      path: "/api/admin/availability/calendar",
      json: { url: "https://127.0.0.1:9/calendars/authz/", username: "authz", password: "app-password" },
    }),
    ok(400, { body: /^\{"message":"[^"]*loopback[^"]*","errors":\{"url":/ }),
    { crossOrigin: ok(403) },
  ),
  apiRow(
    "DELETE /api/admin/availability/calendar",
    () => ({ method: "DELETE", path: "/api/admin/availability/calendar" }),
    ok(200, { body: /^\{"userId":\d+,"disconnected":false\}$/ }),
    { crossOrigin: ok(403) },
  ),
  apiRow(
    "GET /api/admin/meeting-types",
    () => ({ method: "GET", path: "/api/admin/meeting-types" }),
    ok(200, { body: /^\[\{"id":\d+,"slug":"demo","name":"Product demo"/ }),
  ),
  apiRow(
    "POST /api/admin/meeting-types",
    () => ({
      method: "POST",
      path: "/api/admin/meeting-types",
      json: {
        slug: `authz-${++meetingTypeNumber}`,
        name: "Site visit",
        durationMinutes: 45,
        hostChoice: "round_robin",
      },
    }),
    ok(201, { body: /"name":"Site visit","durationMinutes":45/ }),
    { crossOrigin: ok(403) },
  ),
  apiRow(
    "PATCH /api/admin/meeting-types/:id",
    () => ({ method: "PATCH", path: "/api/admin/meeting-types/1", json: { name: "Product demo" } }),
    ok(200, { body: /^\{"id":1,"slug":"demo","name":"Product demo"/ }),
    { crossOrigin: ok(403) },
  ),
  pageRow(
    "GET /admin/meeting-types",
    () => ({ method: "GET", path: "/admin/meeting-types" }),
    "%2Fadmin%2Fmeeting-types",
    ok(200),
  ),
  dataRow("GET /admin/meeting-types.data", () => "/admin/meeting-types", ok(200)),
];

// Issue 10: the webhook calls and page, each refused to anyone but an admin.
const WEBHOOK_ROWS: Row[] = [
  apiRow(
    "GET /api/admin/webhooks",
    () => ({ method: "GET", path: "/api/admin/webhooks" }),
    ok(200, { body: NO_SECRET_JSON }),
  ),
  apiRow(
    "POST /api/admin/webhooks",
    () => ({
      method: "POST",
      path: "/api/admin/webhooks",
      json: { url: WEBHOOK_URL, events: ["lead.created"] },
    }),
    ok(201, {
      body: /^\{"id":\d+,"url":"https:\/\/hooks\.invalid\/authz","events":\["lead\.created"\],"secret":"whsec_/,
    }),
    { changes: "webhooks", crossOrigin: ok(403) },
  ),
  apiRow(
    "DELETE /api/admin/webhooks/:id",
    (_, id) => ({ method: "DELETE", path: `/api/admin/webhooks/${id}` }),
    ok(204, { body: /^$/ }),
    { changes: "webhooks", crossOrigin: ok(403) },
  ),
  apiRow(
    "GET /api/admin/webhooks/:id/deliveries",
    (_, id) => ({ method: "GET", path: `/api/admin/webhooks/${id}/deliveries` }),
    ok(200, { body: NO_SECRET_JSON }),
  ),
  apiRow(
    "POST /api/admin/webhooks/:id/test",
    (_, id) => ({ method: "POST", path: `/api/admin/webhooks/${id}/test`, json: { event: "ping" } }),
    ok(202, { body: /^\{"deliveryId":\d+,"eventId":"[0-9a-f-]{36}"\}$/ }),
    { changes: "webhooks", crossOrigin: ok(403) },
  ),
  apiRow(
    "POST /api/admin/webhooks/:id/rotate-secret",
    (_, id) => ({ method: "POST", path: `/api/admin/webhooks/${id}/rotate-secret` }),
    ok(200, { body: ONE_TIME_SECRET }),
    { changes: "webhooks", crossOrigin: ok(403) },
  ),
  pageRow(
    "GET /admin/webhooks",
    () => ({ method: "GET", path: "/admin/webhooks" }),
    "%2Fadmin%2Fwebhooks",
    ok(200),
  ),
  dataRow("GET /admin/webhooks.data", () => "/admin/webhooks", ok(200)),
  pageRow(
    "POST /admin/webhooks (create form)",
    () => ({
      method: "POST",
      path: "/admin/webhooks",
      form: { intent: "create", url: WEBHOOK_URL, events: "lead.created" },
    }),
    "%2Fadmin%2Fwebhooks",
    ok(200, { body: ONE_TIME_SECRET }),
    { changes: "webhooks", crossOrigin: CROSS_SITE_REFUSED },
  ),
  pageRow(
    "POST /admin/webhooks (test form)",
    (_, id) => ({
      method: "POST",
      path: "/admin/webhooks",
      form: { intent: "test", id: String(id), event: "ping" },
    }),
    "%2Fadmin%2Fwebhooks",
    { status: [302], location: /^\/admin\/webhooks\?notice=test-queued/ },
    { changes: "webhooks", crossOrigin: CROSS_SITE_REFUSED },
  ),
  pageRow(
    "POST /admin/webhooks (rotate form)",
    (_, id) => ({ method: "POST", path: "/admin/webhooks", form: { intent: "rotate", id: String(id) } }),
    "%2Fadmin%2Fwebhooks",
    ok(200, { body: ONE_TIME_SECRET }),
    { changes: "webhooks", crossOrigin: CROSS_SITE_REFUSED },
  ),
  pageRow(
    "POST /admin/webhooks (delete form)",
    (_, id) => ({ method: "POST", path: "/admin/webhooks", form: { intent: "delete", id: String(id) } }),
    "%2Fadmin%2Fwebhooks",
    { status: [302], location: /^\/admin\/webhooks\?notice=deleted$/ },
    { changes: "webhooks", crossOrigin: CROSS_SITE_REFUSED },
  ),
];

// Issue 34: booked meetings carry the attendee's name, email and company (a lead's data). The
// shared meeting is upcoming, with the shared lead's details; a row that records an outcome gets a
// meeting of its own that has started, on a lead of its own.
const MEETING_ROWS: Row[] = [
  apiRow(
    "GET /api/admin/meetings",
    () => ({ method: "GET", path: "/api/admin/meetings" }),
    ok(200, { leadData: true }),
  ),
  apiRow(
    "PATCH /api/admin/meetings/:id",
    (_lead, _webhook, _key, meetingId) => ({
      method: "PATCH",
      path: `/api/admin/meetings/${meetingId}`,
      json: { outcome: "held" },
    }),
    ok(200, { leadData: true, body: /"status":"held"/ }),
    { changes: "meeting", crossOrigin: ok(403) },
  ),
  pageRow(
    "GET /admin/meetings",
    () => ({ method: "GET", path: "/admin/meetings" }),
    "%2Fadmin%2Fmeetings",
    ok(200, { leadData: true, body: /<h1[^>]*>Meetings<\/h1>/ }),
  ),
  dataRow("GET /admin/meetings.data", () => "/admin/meetings"),
  pageRow(
    "POST /admin/meetings (outcome form)",
    (_lead, _webhook, _key, meetingId) => ({
      method: "POST",
      path: "/admin/meetings",
      form: { intent: "outcome", id: String(meetingId), outcome: "no_show" },
    }),
    "%2Fadmin%2Fmeetings",
    { status: [302], location: /^\/admin\/meetings\?notice=no_show$/ },
    { changes: "meeting", crossOrigin: CROSS_SITE_REFUSED },
  ),
];

const ROWS: Row[] = [
  apiRow(
    "GET /api/admin/leads",
    () => ({ method: "GET", path: "/api/admin/leads?spam=include" }),
    ok(200, { leadData: true }),
  ),
  apiRow(
    "GET /api/admin/leads/export",
    () => ({ method: "GET", path: "/api/admin/leads/export" }),
    ok(200, { leadData: true }),
  ),
  apiRow(
    "GET /api/admin/leads/:id",
    (id) => ({ method: "GET", path: `/api/admin/leads/${id}` }),
    ok(200, { leadData: true }),
  ),
  apiRow(
    "PATCH /api/admin/leads/:id",
    (id) => ({ method: "PATCH", path: `/api/admin/leads/${id}`, json: { status: "contacted" } }),
    ok(200, { leadData: true }),
    { changes: "status", crossOrigin: ok(403) },
  ),
  apiRow(
    "DELETE /api/admin/leads/:id",
    (id) => ({ method: "DELETE", path: `/api/admin/leads/${id}` }),
    ok(204, { body: /^$/ }),
    { changes: "delete", crossOrigin: ok(403) },
  ),
  {
    name: "GET /api/user",
    request: () => ({ method: "GET", path: "/api/user" }),
    expect: {
      anonymous: ok(401),
      "non-admin": ok(200, {
        body: new RegExp(`^\\{"id":\\d+,"username":"${STAFF.username}","role":null,"isAdmin":false\\}$`),
      }),
      admin: ok(200, {
        body: new RegExp(`^\\{"id":\\d+,"username":"${ADMIN.username}","role":"admin","isAdmin":true\\}$`),
      }),
      "idle-expired": ok(401),
      "past absolute expiry": ok(401),
      "forged cookie": ok(401),
      "tampered cookie": ok(401),
      "cross-origin": ok(200, { body: /"isAdmin":true/ }),
    },
  },
  {
    name: "POST /api/logout",
    request: () => ({ method: "POST", path: "/api/logout" }),
    changes: "session",
    expect: {
      anonymous: ok(200),
      "non-admin": ok(200),
      admin: ok(200),
      "idle-expired": ok(200),
      "past absolute expiry": ok(200),
      "forged cookie": ok(200),
      "tampered cookie": ok(200),
      "cross-origin": ok(403),
    },
  },
  pageRow(
    "GET /admin/dashboard",
    () => ({ method: "GET", path: "/admin/dashboard?spam=include" }),
    "%2Fadmin%2Fdashboard%3Fspam%3Dinclude",
    ok(200, { leadData: true }),
  ),
  pageRow(
    "GET /admin/leads/:id",
    (id) => ({ method: "GET", path: `/admin/leads/${id}` }),
    "%2Fadmin%2Fleads%2F\\d+",
    ok(200, { leadData: true }),
  ),
  dataRow("GET /admin/dashboard.data", () => "/admin/dashboard"),
  dataRow("GET /admin/leads/:id.data", (id) => `/admin/leads/${id}`),
  pageRow(
    "POST /admin/dashboard (status form)",
    (id) => ({
      method: "POST",
      path: "/admin/dashboard",
      form: { intent: "status", id: String(id), status: "qualified" },
    }),
    "%2Fadmin%2Fdashboard",
    { status: [302], location: /^\/admin\/dashboard\?notice=updated/ },
    { changes: "status", crossOrigin: CROSS_SITE_REFUSED },
  ),
  pageRow(
    "POST /admin/leads/:id (delete form)",
    (id) => ({ method: "POST", path: `/admin/leads/${id}`, form: { intent: "delete" } }),
    "%2Fadmin%2Fleads%2F\\d+",
    { status: [302], location: /^\/admin\/dashboard\?notice=deleted/ },
    { changes: "delete", crossOrigin: CROSS_SITE_REFUSED },
  ),
  apiRow(
    "PATCH /api/admin/leads/:id (owner and spam)",
    (id) => ({ method: "PATCH", path: `/api/admin/leads/${id}`, json: { ownerId: null, spam: true } }),
    ok(200, { leadData: true, body: /"isSpam":true/ }),
    { changes: "lead", crossOrigin: ok(403) },
  ),
  apiRow(
    "PATCH /api/admin/leads/:id (contact fields)",
    (id) => ({ method: "PATCH", path: `/api/admin/leads/${id}`, json: { phone: "+44 20 7946 0000" } }),
    ok(200, { leadData: true, body: /"phone":"\+44 20 7946 0000"/ }),
    { changes: "lead", crossOrigin: ok(403) },
  ),
  apiRow(
    "POST /api/admin/leads/:id/notes",
    (id) => ({ method: "POST", path: `/api/admin/leads/${id}/notes`, json: { body: "Called back." } }),
    ok(201, { body: /"body":"Called back\."/ }),
    { changes: "lead", crossOrigin: ok(403) },
  ),
  // Issue 35: the composer's activities and the tasks. The matrix logs calls (no task names the
  // shared lead in anyone's list) and names no real task, so an admin's task change gets 404.
  apiRow(
    "POST /api/admin/leads/:id/activities",
    (id) => ({
      method: "POST",
      path: `/api/admin/leads/${id}/activities`,
      json: { kind: "call", outcome: "connected", durationMinutes: 4, body: "Rang back." },
    }),
    ok(201, { body: /"kind":"call"/ }),
    { changes: "lead", crossOrigin: ok(403) },
  ),
  apiRow(
    "GET /api/admin/tasks?mine=1",
    () => ({ method: "GET", path: "/api/admin/tasks?mine=1&state=open" }),
    ok(200, { body: /^\{"tasks":\[/ }),
  ),
  apiRow(
    "GET /api/admin/tasks (everyone's)",
    () => ({ method: "GET", path: "/api/admin/tasks?state=done" }),
    ok(200, { body: /^\{"tasks":\[/ }),
  ),
  apiRow(
    "PATCH /api/admin/tasks/:id",
    () => ({ method: "PATCH", path: "/api/admin/tasks/999999", json: { done: true } }),
    ok(404, { body: /^\{"message":"Task not found\."\}$/ }),
    { crossOrigin: ok(403) },
  ),
  pageRow(
    "GET /admin/tasks",
    () => ({ method: "GET", path: "/admin/tasks" }),
    "%2Fadmin%2Ftasks",
    ok(200, { body: /<h1[^>]*>My tasks<\/h1>/ }),
  ),
  dataRow("GET /admin/tasks.data", () => "/admin/tasks", ok(200, { body: /"sections"/ })),
  pageRow(
    "POST /admin/tasks (done form)",
    () => ({
      method: "POST",
      path: "/admin/tasks",
      form: { intent: "task-done", taskId: "999999", done: "true" },
    }),
    "%2Fadmin%2Ftasks",
    ok(404),
    { crossOrigin: CROSS_SITE_REFUSED },
  ),
  pageRow(
    "POST /admin/leads/:id (composer's call form)",
    (id) => ({
      method: "POST",
      path: `/admin/leads/${id}`,
      form: { intent: "activity", kind: "call", outcome: "no_answer", durationMinutes: "", body: "" },
    }),
    "%2Fadmin%2Fleads%2F\\d+",
    { status: [302], location: /^\/admin\/leads\/\d+\?composer=call&notice=call$/ },
    { changes: "lead", crossOrigin: CROSS_SITE_REFUSED },
  ),
  pageRow(
    "POST /admin/account (morning e-mail form)",
    () => ({ method: "POST", path: "/admin/account", form: { intent: "task-digest", on: "1" } }),
    "%2Fadmin%2Faccount",
    { status: [302], location: /^\/admin\/account\?notice=task-digest-on/ },
    { crossOrigin: CROSS_SITE_REFUSED },
  ),
  apiRow(
    "POST /api/admin/leads/bulk",
    (id) => ({
      method: "POST",
      path: "/api/admin/leads/bulk",
      json: { ids: [id], action: "spam", value: true },
    }),
    ok(200, { body: /^\{"changed":1,"missing":\[\]\}$/ }),
    { changes: "lead", crossOrigin: ok(403) },
  ),
  apiRow(
    "GET /api/admin/api-keys",
    () => ({ method: "GET", path: "/api/admin/api-keys" }),
    ok(200, { body: NO_KEY_JSON }),
  ),
  apiRow(
    "POST /api/admin/api-keys",
    () => ({ method: "POST", path: "/api/admin/api-keys", json: { name: `authz key ${++apiKeyNumber}` } }),
    ok(201, { body: /"key":"cbk_/ }),
    { changes: "api-keys", crossOrigin: ok(403) },
  ),
  apiRow(
    "DELETE /api/admin/api-keys/:id",
    (_lead, _webhook, keyId) => ({ method: "DELETE", path: `/api/admin/api-keys/${keyId}` }),
    ok(204, { body: /^$/ }),
    { changes: "api-keys", crossOrigin: ok(403) },
  ),
  pageRow(
    "GET /admin/api-keys",
    () => ({ method: "GET", path: "/admin/api-keys" }),
    "%2Fadmin%2Fapi-keys",
    ok(200),
  ),
  dataRow("GET /admin/api-keys.data", () => "/admin/api-keys", ok(200)),
  pageRow(
    "POST /admin/api-keys (create form)",
    () => ({
      method: "POST",
      path: "/admin/api-keys",
      form: { intent: "create", name: `authz form key ${++apiKeyNumber}` },
    }),
    "%2Fadmin%2Fapi-keys",
    ok(200, { body: /cbk_/ }),
    { changes: "api-keys", crossOrigin: CROSS_SITE_REFUSED },
  ),
  pageRow(
    "POST /admin/dashboard (bulk form)",
    (id) => ({
      method: "POST",
      path: "/admin/dashboard",
      form: { intent: "bulk", ids: String(id), do: "spam:true" },
    }),
    "%2Fadmin%2Fdashboard",
    { status: [302], location: /^\/admin\/dashboard\?notice=bulk/ },
    { changes: "lead", crossOrigin: CROSS_SITE_REFUSED },
  ),
  pageRow(
    "POST /admin/leads/:id (note form)",
    (id) => ({
      method: "POST",
      path: `/admin/leads/${id}`,
      form: { intent: "note", body: "Sent the deck." },
    }),
    "%2Fadmin%2Fleads%2F\\d+",
    { status: [302], location: /^\/admin\/leads\/\d+\?notice=note$/ },
    { changes: "lead", crossOrigin: CROSS_SITE_REFUSED },
  ),
  pageRow(
    "POST /admin/leads/:id (details form)",
    (id) => ({
      method: "POST",
      path: `/admin/leads/${id}`,
      form: {
        intent: "details",
        fullName: "Matrix Lead",
        company: "Matrix Co",
        email: "matrix.lead@example.com",
        phone: "+44 20 7946 0000",
        message: "",
      },
    }),
    "%2Fadmin%2Fleads%2F\\d+",
    { status: [302], location: /^\/admin\/leads\/\d+\?notice=details$/ },
    { changes: "lead", crossOrigin: CROSS_SITE_REFUSED },
  ),
  pageRow(
    "POST /admin/leads/:id (spam form)",
    (id) => ({ method: "POST", path: `/admin/leads/${id}`, form: { intent: "spam", value: "true" } }),
    "%2Fadmin%2Fleads%2F\\d+",
    { status: [302], location: /^\/admin\/leads\/\d+\?notice=spam$/ },
    { changes: "lead", crossOrigin: CROSS_SITE_REFUSED },
  ),
  apiRow(
    "GET /api/admin/users",
    () => ({ method: "GET", path: "/api/admin/users" }),
    ok(200, { body: LISTS_ADMIN }),
  ),
  apiRow(
    "POST /api/admin/users",
    () => ({
      method: "POST",
      path: "/api/admin/users",
      json: { username: `authz-new-${++newStaffNumber}`, password: "a new colleague's passphrase" },
    }),
    ok(201, { body: /"isAdmin":true/ }),
    { changes: "user-create", crossOrigin: ok(403) },
  ),
  apiRow(
    "PATCH /api/admin/users/:id",
    (id) => ({ method: "PATCH", path: `/api/admin/users/${id}`, json: { disabled: true } }),
    ok(200, { body: /"disabled":true/ }),
    { changes: "user-disable", crossOrigin: ok(403) },
  ),
  pageRow(
    "GET /admin/staff",
    () => ({ method: "GET", path: "/admin/staff" }),
    "%2Fadmin%2Fstaff",
    ok(200, { body: LISTS_ADMIN }),
  ),
  dataRow("GET /admin/staff.data", () => "/admin/staff", ok(200, { body: LISTS_ADMIN })),
  pageRow(
    "POST /admin/staff (disable form)",
    (id) => ({ method: "POST", path: "/admin/staff", form: { intent: "disable", id: String(id) } }),
    "%2Fadmin%2Fstaff",
    { status: [302], location: /^\/admin\/staff\?notice=disabled&id=\d+$/ },
    { changes: "user-disable", crossOrigin: CROSS_SITE_REFUSED },
  ),
  // Issue 13: your own sessions, and signing someone out everywhere. The matrix names no real
  // session or account (its callers' sessions must survive): an admin gets 404, anyone else is refused.
  apiRow(
    "GET /api/admin/sessions",
    () => ({ method: "GET", path: "/api/admin/sessions" }),
    ok(200, { body: /^\[\{"id":"[0-9a-f]{24}","browser":"[^"]+","address":"[^"]+"/ }),
  ),
  apiRow(
    "DELETE /api/admin/sessions/:id",
    () => ({ method: "DELETE", path: `/api/admin/sessions/${NO_SUCH_SESSION}` }),
    ok(404, { body: /^\{"message":"Session not found\."\}$/ }),
    { crossOrigin: ok(403) },
  ),
  apiRow(
    "DELETE /api/admin/users/:id/sessions",
    () => ({ method: "DELETE", path: "/api/admin/users/999999/sessions" }),
    ok(404),
    { crossOrigin: ok(403) },
  ),
  pageRow(
    "GET /admin/account",
    () => ({ method: "GET", path: "/admin/account" }),
    "%2Fadmin%2Faccount",
    ok(200, { body: /This browser/ }),
  ),
  dataRow("GET /admin/account.data", () => "/admin/account", ok(200, { body: /"lastSeen"/ })),
  pageRow(
    "POST /admin/account (end-session form)",
    () => ({ method: "POST", path: "/admin/account", form: { intent: "end", id: NO_SUCH_SESSION } }),
    "%2Fadmin%2Faccount",
    ok(404),
    { crossOrigin: CROSS_SITE_REFUSED },
  ),
  pageRow(
    "POST /admin/staff (sign-out-everywhere form)",
    () => ({ method: "POST", path: "/admin/staff", form: { intent: "sign-out", id: "999999" } }),
    "%2Fadmin%2Fstaff",
    ok(404),
    { crossOrigin: CROSS_SITE_REFUSED },
  ),
  // Issue 35: each person's own notifications (the bell), read and marked read; none of the
  // matrix's callers has any, so an admin marks nothing and no one else's can be named.
  apiRow(
    "GET /api/admin/notifications",
    () => ({ method: "GET", path: "/api/admin/notifications" }),
    ok(200, { body: /^\{"unread":\d+,"total":\d+,"items":\[/ }),
  ),
  apiRow(
    "POST /api/admin/notifications/read",
    () => ({ method: "POST", path: "/api/admin/notifications/read", json: { ids: [999999] } }),
    ok(200, { body: /^\{"marked":0,"unread":\d+\}$/ }),
    { crossOrigin: ok(403) },
  ),
  pageRow(
    "GET /admin/notifications",
    () => ({ method: "GET", path: "/admin/notifications" }),
    "%2Fadmin%2Fnotifications",
    ok(200, { body: /Notifications/ }),
  ),
  dataRow("GET /admin/notifications.data", () => "/admin/notifications", ok(200, { body: /"unread"/ })),
  pageRow(
    "POST /admin/notifications (open form)",
    () => ({ method: "POST", path: "/admin/notifications", form: { intent: "open", id: "999999" } }),
    "%2Fadmin%2Fnotifications",
    ok(404),
    { crossOrigin: CROSS_SITE_REFUSED },
  ),
  // Issue 13, two-factor sign-in: an admin's reset of a colleague's, and one's own on the account
  // page. The matrix names no real account and sends no right code: an admin gets 404 or 400.
  apiRow(
    "DELETE /api/admin/users/:id/two-factor",
    () => ({ method: "DELETE", path: "/api/admin/users/999999/two-factor" }),
    ok(404, { body: /^\{"message":"No such staff account\."\}$/ }),
    { crossOrigin: ok(403) },
  ),
  pageRow(
    "POST /admin/staff (reset-two-factor form)",
    () => ({ method: "POST", path: "/admin/staff", form: { intent: "reset-two-factor", id: "999999" } }),
    "%2Fadmin%2Fstaff",
    ok(404),
    { crossOrigin: CROSS_SITE_REFUSED },
  ),
  pageRow(
    "POST /admin/account (two-factor confirm form)",
    () => ({ method: "POST", path: "/admin/account", form: { intent: "2fa-confirm", code: "000000" } }),
    "%2Fadmin%2Faccount",
    ok(400),
    { crossOrigin: CROSS_SITE_REFUSED },
  ),
  pageRow(
    "POST /admin/account (two-factor disable form)",
    () => ({ method: "POST", path: "/admin/account", form: { intent: "2fa-disable", proof: "000000" } }),
    "%2Fadmin%2Faccount",
    ok(401),
    { crossOrigin: CROSS_SITE_REFUSED },
  ),
  {
    // The second step belongs to whoever holds a pending-login cookie, not to a session: without one
    // every caller is told to start again, and a cross-site post is refused before anything runs.
    name: "POST /api/login/2fa",
    request: () => ({ method: "POST", path: "/api/login/2fa", json: { code: "123456" } }),
    ignoresSession: true,
    expect: {
      anonymous: ok(401, { body: /"signInAgain":true/ }),
      "non-admin": ok(401, { body: /"signInAgain":true/ }),
      admin: ok(401, { body: /"signInAgain":true/ }),
      "idle-expired": ok(401, { body: /"signInAgain":true/ }),
      "past absolute expiry": ok(401, { body: /"signInAgain":true/ }),
      "forged cookie": ok(401, { body: /"signInAgain":true/ }),
      "tampered cookie": ok(401, { body: /"signInAgain":true/ }),
      "cross-origin": ok(403),
    },
  },
  apiRow(
    "GET /api/admin/access-log",
    () => ({ method: "GET", path: "/api/admin/access-log" }),
    ok(200, { body: /^\{"entries":\[/ }),
  ),
  pageRow(
    "GET /admin/access-log",
    () => ({ method: "GET", path: "/admin/access-log" }),
    "%2Fadmin%2Faccess-log",
    ok(200, { body: /<h1[^>]*>Access log<\/h1>/ }),
  ),
  dataRow("GET /admin/access-log.data", () => "/admin/access-log", ok(200, { body: /"entries"/ })),
  // Issue 24, the content studio's posts API (tests/e2e/roles-matrix.test.ts has the roles): every
  // change refused cross-site; the matrix names no real post, so an admin gets 400 or 404.
  apiRow(
    "GET /api/admin/posts",
    () => ({ method: "GET", path: "/api/admin/posts?q=hidden" }),
    ok(200, {
      body: /^\{"posts":\[\{"id":\d+,"kind":"article","slug":"hidden-costs-poor-contract-management"/,
    }),
  ),
  apiRow(
    "POST /api/admin/posts",
    () => ({ method: "POST", path: "/api/admin/posts", json: { kind: "article", title: "" } }),
    ok(400, { body: /"title":"Give the post a title"/ }),
    { crossOrigin: ok(403) },
  ),
  apiRow(
    "PATCH /api/admin/posts/:id",
    () => ({ method: "PATCH", path: "/api/admin/posts/999999", json: { revision: 1, title: "A title" } }),
    ok(404, { body: /^\{"message":"No such post\."\}$/ }),
    { crossOrigin: ok(403) },
  ),
  apiRow(
    "DELETE /api/admin/posts/:id",
    () => ({ method: "DELETE", path: "/api/admin/posts/999999" }),
    ok(404),
    { crossOrigin: ok(403) },
  ),
  apiRow(
    "POST /api/admin/posts/:id/publish",
    () => ({ method: "POST", path: "/api/admin/posts/999999/publish", json: {} }),
    ok(404),
    { crossOrigin: ok(403) },
  ),
  apiRow(
    "POST /api/admin/posts/:id/unpublish",
    () => ({ method: "POST", path: "/api/admin/posts/999999/unpublish", json: {} }),
    ok(404),
    { crossOrigin: ok(403) },
  ),
  apiRow(
    "POST /api/admin/posts/:id/revisions/:revision/restore",
    () => ({ method: "POST", path: "/api/admin/posts/999999/revisions/1/restore", json: {} }),
    ok(404),
    { crossOrigin: ok(403) },
  ),
  // The studio's pages and their forms: nothing posted by another site runs, nothing stored on a
  // refused form (a post without a title; a post that does not exist).
  pageRow(
    "GET /admin/content",
    () => ({ method: "GET", path: "/admin/content" }),
    "%2Fadmin%2Fcontent",
    ok(200, { body: /<h1[^>]*>Content<\/h1>/ }),
  ),
  pageRow(
    "GET /admin/content/new",
    () => ({ method: "GET", path: "/admin/content/new" }),
    "%2Fadmin%2Fcontent%2Fnew",
    ok(200, { body: /<h1[^>]*>New post<\/h1>/ }),
  ),
  dataRow("GET /admin/content.data", () => "/admin/content", ok(200, { body: /"filters"/ })),
  pageRow(
    "POST /admin/content/new (save form)",
    () => ({ method: "POST", path: "/admin/content/new", form: { intent: "save", title: "" } }),
    "%2Fadmin%2Fcontent%2Fnew",
    ok(400, { body: /Give the post a title/ }),
    { crossOrigin: CROSS_SITE_REFUSED },
  ),
  pageRow(
    "POST /admin/content/:id (unpublish form)",
    () => ({
      method: "POST",
      path: "/admin/content/999999",
      form: { intent: "unpublish", revision: "1" },
    }),
    "%2Fadmin%2Fcontent%2F999999",
    ok(404),
    { crossOrigin: CROSS_SITE_REFUSED },
  ),
  // Issue 23: leads added by hand and imported from a CSV.
  pageRow(
    "GET /admin/leads/new",
    () => ({ method: "GET", path: "/admin/leads/new" }),
    "%2Fadmin%2Fleads%2Fnew",
    ok(200, { body: /<h1[^>]*>Add a lead<\/h1>/ }),
  ),
  pageRow(
    "GET /admin/leads/import",
    () => ({ method: "GET", path: "/admin/leads/import" }),
    "%2Fadmin%2Fleads%2Fimport",
    ok(200, { body: /<h1[^>]*>Import leads<\/h1>/ }),
  ),
  // Issue 35: the board by status (the list's query parameters), its status form, and the list's
  // rows per page kept for the person.
  pageRow(
    "GET /admin/leads/board",
    () => ({ method: "GET", path: "/admin/leads/board?spam=include" }),
    "%2Fadmin%2Fleads%2Fboard%3Fspam%3Dinclude",
    ok(200, { leadData: "name and company", body: /<h1[^>]*>Leads<\/h1>/ }),
  ),
  dataRow(
    "GET /admin/leads/board.data",
    () => "/admin/leads/board",
    ok(200, { leadData: "name and company" }),
  ),
  pageRow(
    "POST /admin/leads/board (status form)",
    (id) => ({
      method: "POST",
      path: "/admin/leads/board",
      form: { intent: "status", id: String(id), status: "qualified" },
    }),
    "%2Fadmin%2Fleads%2Fboard",
    { status: [302], location: /^\/admin\/leads\/board\?notice=updated/ },
    { changes: "status", crossOrigin: CROSS_SITE_REFUSED },
  ),
  pageRow(
    "POST /admin/dashboard (rows per page form)",
    () => ({ method: "POST", path: "/admin/dashboard", form: { intent: "page-size", pageSize: "10" } }),
    "%2Fadmin%2Fdashboard",
    { status: [302], location: /^\/admin\/dashboard$/ },
    { crossOrigin: CROSS_SITE_REFUSED },
  ),
  // Issue 12, the analytics report: figures only, never a lead's details.
  apiRow(
    "GET /api/admin/analytics",
    () => ({ method: "GET", path: "/api/admin/analytics?from=2026-01-01&to=2026-01-31" }),
    ok(200, { body: /^\{"from":"2026-01-01","to":"2026-01-31","days":31,"granularity":"day","visitors":0,/ }),
  ),
  apiRow(
    "GET /api/admin/analytics (from after to)",
    () => ({ method: "GET", path: "/api/admin/analytics?from=2026-02-01&to=2026-01-31" }),
    ok(400, { body: /^\{"message":"from must be on or before to\."\}$/ }),
  ),
  pageRow(
    "GET /admin/analytics",
    () => ({ method: "GET", path: "/admin/analytics?period=7d" }),
    "%2Fadmin%2Fanalytics%3Fperiod%3D7d",
    ok(200, { body: /<h1[^>]*>Analytics<\/h1>/ }),
  ),
  pageRow(
    "GET /admin/analytics (from after to)",
    () => ({ method: "GET", path: "/admin/analytics?from=2026-02-01&to=2026-01-31" }),
    "%2Fadmin%2Fanalytics%3Ffrom%3D2026-02-01%26to%3D2026-01-31",
    ok(400, { body: /role="alert"[^>]*>from must be on or before to\.</ }),
  ),
  dataRow("GET /admin/analytics.data", () => "/admin/analytics", ok(200, { body: /"funnel"/ })),
  // Issue 13, people's data rights: the matrix names nobody held (an admin gets 404; nothing is erased).
  apiRow(
    "GET /api/admin/people",
    () => ({ method: "GET", path: "/api/admin/people?email=nobody%40nowhere.example" }),
    ok(404, { body: /^\{"message":"Nothing is held on this email address\."\}$/ }),
  ),
  apiRow(
    "DELETE /api/admin/people",
    () => ({ method: "DELETE", path: "/api/admin/people?email=nobody%40nowhere.example" }),
    ok(404),
    { crossOrigin: ok(403) },
  ),
  pageRow(
    "GET /admin/people",
    () => ({ method: "GET", path: "/admin/people?email=nobody%40nowhere.example" }),
    "%2Fadmin%2Fpeople%3Femail%3Dnobody%2540nowhere.example",
    ok(200, { body: /Nothing is held on this email address/ }),
  ),
  dataRow("GET /admin/people.data", () => "/admin/people", ok(200, { body: /"searched"/ })),
  pageRow(
    "POST /admin/people (erase form)",
    () => ({
      method: "POST",
      path: "/admin/people",
      form: { email: "nobody@nowhere.example", confirm: "yes", reason: "matrix" },
    }),
    "%2Fadmin%2Fpeople",
    ok(404),
    { crossOrigin: CROSS_SITE_REFUSED },
  ),
  {
    name: "POST /admin/logout",
    request: () => ({ method: "POST", path: "/admin/logout", form: {} }),
    changes: "session",
    expect: {
      anonymous: ok(302, { location: "/admin/login?logged-out=1" }),
      "non-admin": ok(302, { location: "/admin/login?logged-out=1" }),
      admin: ok(302, { location: "/admin/login?logged-out=1" }),
      "idle-expired": ok(302, { location: "/admin/login?logged-out=1" }),
      "past absolute expiry": ok(302, { location: "/admin/login?logged-out=1" }),
      "forged cookie": ok(302, { location: "/admin/login?logged-out=1" }),
      "tampered cookie": ok(302, { location: "/admin/login?logged-out=1" }),
      "cross-origin": CROSS_SITE_REFUSED,
    },
  },
  ...WEBHOOK_ROWS,
  ...AVAILABILITY_ROWS,
  ...MEETING_ROWS,
];

/** One character of a base64url token changed, still a well-formed token. */
function tamper(token: string): string {
  const at = Math.floor(token.length / 2);
  return `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`;
}

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`admin authorization matrix [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    let target: Target;
    let sharedLead: number;
    let sharedWebhook: number;
    let sharedMeeting: number;

    beforeAll(async () => {
      if (!available) return;
      target = await startTarget(kind);
      sharedLead = await addLead();
      sharedWebhook = await addWebhook();
      sharedMeeting = await addMeeting(sharedLead, 26);
    }, 60_000);
    afterAll(async () => {
      await target?.cleanup();
    });

    const db = () => target.database.db;
    let leadNumber = 0;
    async function addLead(): Promise<number> {
      const now = new Date(Date.now() - ++leadNumber * 1000).toISOString();
      const row = await db()
        .insertInto("leads")
        .values(
          leadRow({
            fullName: "Leaky Leadperson",
            email: "leaky.leadperson@secret-lead.example",
            company: "Confidential Builds Ltd",
            phone: "+44 20 7946 0999",
            message: "Private plans",
            createdAt: now,
            updatedAt: now,
          }),
        )
        .returning("id")
        .executeTakeFirstOrThrow();
      return Number(row.id);
    }
    async function addWebhook(): Promise<number> {
      const row = await db()
        .insertInto("webhooks")
        .values({
          url: WEBHOOK_URL,
          events: JSON.stringify(["lead.created"]),
          secret: `whsec_${randomBytes(32).toString("base64url")}`,
          createdAt: new Date().toISOString(),
          createdBy: ADMIN.username,
          secretRotatedAt: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return Number(row.id);
    }
    /** A demo of the lead's, hosted by the admin, starting `hoursAhead` from now (negative: started). */
    async function addMeeting(leadId: number, hoursAhead: number): Promise<number> {
      const type = await db()
        .selectFrom("meetingTypes")
        .select("id")
        .where("slug", "=", "demo")
        .executeTakeFirstOrThrow();
      const start = new Date(Math.floor((Date.now() + hoursAhead * 3_600_000) / 300_000) * 300_000);
      const now = new Date().toISOString();
      const row = await db()
        .insertInto("meetings")
        .values({
          typeId: type.id,
          hostId: target.adminId,
          leadId,
          status: "booked",
          startAt: start.toISOString(),
          endAt: new Date(start.getTime() + 30 * 60_000).toISOString(),
          uid: `authz-${randomBytes(8).toString("hex")}@clausebridge`,
          fullName: "Leaky Leadperson",
          email: "leaky.leadperson@secret-lead.example",
          company: "Confidential Builds Ltd",
          phone: null,
          timeZone: "Europe/London",
          source: "api",
          createdAt: now,
          updatedAt: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return Number(row.id);
    }
    const meetingState = async (id: number) =>
      (await db()
        .selectFrom("meetings")
        .select(["status", "updatedAt"])
        .where("id", "=", id)
        .executeTakeFirst()) ?? null;
    const webhookState = async () => ({
      webhooks: await db().selectFrom("webhooks").select(["id", "secret"]).orderBy("id").execute(),
      deliveries: (await db().selectFrom("webhookDeliveries").select("id").execute()).length,
    });
    const leadState = async (id: number) => ({
      lead: await db()
        .selectFrom("leads")
        .select(["status", "updatedAt", "ownerId", "isSpam"])
        .where("id", "=", id)
        .executeTakeFirst(),
      history: (await db().selectFrom("leadStatusChanges").select("id").where("leadId", "=", id).execute())
        .length,
      notes: (await db().selectFrom("leadNotes").select("id").where("leadId", "=", id).execute()).length,
      events: (await db().selectFrom("leadEvents").select("id").where("leadId", "=", id).execute()).length,
      activities: (await db().selectFrom("leadActivities").select("id").where("leadId", "=", id).execute())
        .length,
    });
    const apiKeyState = async () =>
      db().selectFrom("apiKeys").select(["id", "revokedAt"]).orderBy("id").execute();
    let apiKeySeed = 0;
    /** A fresh active key for a row that revokes one (the others leave it be). */
    async function addApiKey(): Promise<number> {
      const row = await db()
        .insertInto("apiKeys")
        .values({
          name: `authz seed ${++apiKeySeed} ${randomBytes(4).toString("hex")}`,
          keyPrefix: "cbk_seed00",
          keyHash: randomBytes(32).toString("hex"),
          createdByUserId: null,
          createdByUsername: ADMIN.username,
          createdAt: new Date().toISOString(),
          lastUsedAt: null,
          revokedAt: null,
          revokedByUsername: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return Number(row.id);
    }
    /** A staff account for a "user-disable" row to act on (its password is never used). */
    let victimNumber = 0;
    async function addStaffAccount(): Promise<number> {
      const now = new Date().toISOString();
      const username = `authz-victim-${++victimNumber}`;
      const row = await db()
        .insertInto("users")
        .values({
          username,
          usernameKey: username,
          passwordHash: "scrypt$not-a-real-hash",
          isAdmin: 1,
          createdAt: now,
          updatedAt: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return Number(row.id);
    }
    const staffState = async (id: number) => ({
      users: (await db().selectFrom("users").select("id").execute()).length,
      disabled: (await db().selectFrom("users").select("disabled").where("id", "=", id).executeTakeFirst())
        ?.disabled,
    });
    const sessionAlive = async (token: string) =>
      Boolean(
        await db()
          .selectFrom("sessions")
          .select("idHash")
          .where("idHash", "=", hashToken(token))
          .executeTakeFirst(),
      );

    /** The caller's headers, with a session of its own (calls like logout consume sessions). */
    async function caller(who: Who): Promise<{ headers: Record<string, string>; token?: string }> {
      const session = async (userId: number, agedBy?: "idle" | "absolute") => {
        const now = Date.now();
        const created = agedBy === "absolute" ? new Date(now - POLICY.absoluteMs - 60_000) : new Date(now);
        const { token } = await createSession(db(), userId, POLICY, created);
        // Aged in the database as time would: idle since before the idle limit, or kept active
        // (seen a minute ago) but past its absolute expiry.
        const lastSeenAt =
          agedBy === "idle"
            ? new Date(now - POLICY.idleMs - 60_000)
            : agedBy === "absolute"
              ? new Date(now - 60_000)
              : undefined;
        if (lastSeenAt) {
          await db()
            .updateTable("sessions")
            .set({ lastSeenAt: lastSeenAt.toISOString() })
            .where("idHash", "=", hashToken(token))
            .execute();
        }
        return token;
      };
      const cookie = (token: string) => ({ Cookie: `session=${token}` });
      switch (who) {
        case "anonymous":
          return { headers: {} };
        case "non-admin": {
          const token = await session(target.staffId);
          return { headers: cookie(token), token };
        }
        case "admin": {
          const token = await session(target.adminId);
          return { headers: cookie(token), token };
        }
        case "idle-expired": {
          const token = await session(target.adminId, "idle");
          return { headers: cookie(token), token };
        }
        case "past absolute expiry": {
          const token = await session(target.adminId, "absolute");
          return { headers: cookie(token), token };
        }
        case "forged cookie":
          // A well-formed token nobody was given, with the readable hint that grants nothing.
          return { headers: { Cookie: `session=${randomBytes(32).toString("base64url")}; admin_hint=1` } };
        case "tampered cookie": {
          const token = await session(target.adminId);
          return { headers: cookie(tamper(token)), token };
        }
        case "cross-origin": {
          const token = await session(target.adminId);
          return { headers: { ...cookie(token), ...EVIL }, token };
        }
      }
    }

    describe.skipIf(!available)("every endpoint × every caller", () => {
      for (const row of ROWS) {
        for (const who of WHO) {
          it(`${row.name} — ${who}`, async () => {
            const leadId =
              row.changes === "status" ||
              row.changes === "delete" ||
              row.changes === "lead" ||
              row.changes === "meeting"
                ? await addLead()
                : sharedLead;
            const meetingId = row.changes === "meeting" ? await addMeeting(leadId, -2) : sharedMeeting;
            const apiKeyId = await addApiKey();
            // Webhooks are capped per installation: start each such call from the shared one alone.
            if (row.changes === "webhooks") {
              await db().deleteFrom("webhookDeliveries").where("webhookId", "!=", sharedWebhook).execute();
              await db().deleteFrom("webhooks").where("id", "!=", sharedWebhook).execute();
            }
            const webhookId = row.changes === "webhooks" ? await addWebhook() : sharedWebhook;
            const staffId = row.changes === "user-disable" ? await addStaffAccount() : target.adminId;
            const { headers, token } = await caller(who);
            const { method, path, json, form } = row.request(
              row.changes === "user-disable" ? staffId : leadId,
              webhookId,
              apiKeyId,
              meetingId,
            );
            const meetingBefore = await meetingState(meetingId);
            const apiKeysBefore = await apiKeyState();
            const before = await leadState(leadId);
            const staffBefore = await staffState(staffId);
            const webhooksBefore = await webhookState();
            const sameOrigin: Record<string, string> =
              who === "cross-origin" ? {} : { Origin: target.server.url };
            const response = await fetch(`${target.server.url}${path}`, {
              method,
              redirect: "manual",
              headers: {
                "X-Forwarded-For": newClient(),
                ...(method === "GET" ? {} : sameOrigin),
                ...(json ? { "Content-Type": "application/json" } : {}),
                ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
                ...headers,
              },
              body: json ? JSON.stringify(json) : form ? new URLSearchParams(form).toString() : undefined,
            });
            const body = await response.text();
            const want = row.expect[who];

            expect(want.status, `status, body: ${body.slice(0, 200)}`).toContain(response.status);
            if (want.location instanceof RegExp)
              expect(response.headers.get("location")).toMatch(want.location);
            else if (want.location) expect(response.headers.get("location")).toBe(want.location);
            if (want.body) expect(body).toMatch(want.body);
            const leaked = LEAD_SECRETS.filter((secret) => body.includes(secret));
            // A board card (issue 35) shows the name and company, not the e-mail.
            if (want.leadData === "name and company")
              expect(leaked).toEqual(["Leaky Leadperson", "Confidential Builds Ltd"]);
            else if (want.leadData) expect(leaked).toEqual(LEAD_SECRETS);
            else expect(leaked, "lead data in a refused or unrelated answer").toEqual([]);
            // Nothing invites another site to read an answer.
            expect(response.headers.get("access-control-allow-origin")).toBeNull();
            expect(response.headers.get("access-control-allow-credentials")).toBeNull();

            const allowed = who === "admin" || (row.changes === "session" && response.status < 400);
            const after = await leadState(leadId);
            if (row.changes === "status" && allowed) {
              expect(after.lead?.status).not.toBe(before.lead?.status);
              expect(after.history).toBe(before.history + 1);
            } else if (row.changes === "delete" && allowed) {
              expect(after).toEqual({ lead: undefined, history: 0, notes: 0, events: 0, activities: 0 });
            } else if ((row.changes === "lead" || row.changes === "meeting") && allowed) {
              expect(after).not.toEqual(before);
            } else {
              expect(after, "a refused call changed the lead").toEqual(before);
            }
            const meetingAfter = await meetingState(meetingId);
            if (row.changes === "meeting" && allowed) expect(meetingAfter).not.toEqual(meetingBefore);
            else expect(meetingAfter, "a refused call changed the meeting").toEqual(meetingBefore);
            const staffAfter = await staffState(staffId);
            if (row.changes === "user-create" && allowed) {
              expect(staffAfter.users).toBe(staffBefore.users + 1);
            } else if (row.changes === "user-disable" && allowed) {
              expect(staffAfter).toEqual({ users: staffBefore.users, disabled: 1 });
            } else {
              expect(staffAfter, "a refused call changed a staff account").toEqual(staffBefore);
            }
            const apiKeysAfter = await apiKeyState();
            if (row.changes === "api-keys" && allowed) expect(apiKeysAfter).not.toEqual(apiKeysBefore);
            else expect(apiKeysAfter, "a refused call changed the API keys").toEqual(apiKeysBefore);
            // A key is only ever in the admin's answer to its creation.
            if (!allowed) expect(body).not.toMatch(/cbk_[A-Za-z0-9_-]{20}/);
            const webhooksAfter = await webhookState();
            if (row.changes === "webhooks" && allowed) expect(webhooksAfter).not.toEqual(webhooksBefore);
            else expect(webhooksAfter, "a refused call changed the webhooks").toEqual(webhooksBefore);
            // A signing secret is only ever in the admin's answer to creation or rotation.
            if (!allowed) expect(body).not.toContain("whsec_");
            // The stored key itself is in no answer at all: the one-time answers show its whsec_ form.
            for (const { secret } of [...webhooksBefore.webhooks, ...webhooksAfter.webhooks]) {
              expect(body, "a webhook's stored key in an answer").not.toContain(secret);
            }
            if (token) {
              const signedOut =
                row.changes === "session" && response.status < 400 && who !== "tampered cookie";
              const expired =
                !row.ignoresSession && (who === "idle-expired" || who === "past absolute expiry");
              // An expired session is deleted when met; any other survives a refused or unrelated call.
              expect(await sessionAlive(token)).toBe(!signedOut && !expired);
            }
          });
        }
      }

      it("sends a signed-out data request back to the page after sign-in, not to its data", async () => {
        for (const path of ["/admin/dashboard", `/admin/leads/${sharedLead}`]) {
          const response = await fetch(`${target.server.url}${path}.data`, { redirect: "manual" });
          const body = await response.text();
          expect(body).toContain(`"/admin/login?next=${encodeURIComponent(path)}"`);
        }
      });

      it("refuses a state change that any one cross-site marker flags, and allows same-origin ones", async () => {
        const patch = async (headers: Record<string, string>) => {
          const { headers: session } = await caller("admin");
          const leadId = await addLead();
          const response = await fetch(`${target.server.url}/api/admin/leads/${leadId}`, {
            method: "PATCH",
            headers: { "Content-Type": "application/json", ...session, ...headers },
            body: JSON.stringify({ status: "customer" }),
          });
          await response.arrayBuffer();
          return { status: response.status, stored: (await leadState(leadId)).lead?.status };
        };
        const refused = { status: 403, stored: "new" };
        expect(await patch({ Origin: "https://evil.example" })).toEqual(refused);
        expect(await patch({ Origin: "null" })).toEqual(refused);
        expect(await patch({ Origin: target.server.url.replace("127.0.0.1", "localhost") })).toEqual(refused);
        expect(await patch({ "Sec-Fetch-Site": "cross-site" })).toEqual(refused);
        expect(await patch({ "Sec-Fetch-Site": "same-site" })).toEqual(refused);
        expect(await patch({ "Sec-Fetch-Site": "same-origin", Origin: "https://evil.example" })).toEqual(
          refused,
        );
        const allowed = { status: 200, stored: "customer" };
        expect(await patch({ Origin: target.server.url, "Sec-Fetch-Site": "same-origin" })).toEqual(allowed);
        // A client that is not a browser (curl, a script) sends neither and carries no victim's cookies.
        expect(await patch({})).toEqual(allowed);
      });
    });
  });
}

describe("sign-in, cookies and sessions [sqlite]", () => {
  let target: Target;
  beforeAll(async () => {
    target = await startTarget("sqlite");
  }, 60_000);
  afterAll(async () => {
    await target?.cleanup();
  });

  const login = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${target.server.url}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": newClient(), ...headers },
      body: JSON.stringify(body),
    });

  it("answers a sign-in with the user and isAdmin, never the password hash, in an HttpOnly SameSite=Lax cookie", async () => {
    const response = await login(ADMIN, { Origin: target.server.url });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      id: target.adminId,
      username: ADMIN.username,
      role: "admin",
      isAdmin: true,
    });
    expect(text).not.toMatch(/scrypt|hash|password/i);
    const [session, hint, device] = response.headers.getSetCookie();
    expect(session).toMatch(/^session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=28800; SameSite=Lax; HttpOnly$/);
    // Over plain HTTP (local use) the cookie cannot be Secure, nor __Host- prefixed.
    expect(session).not.toMatch(/Secure|Domain/i);
    // The readable hint holds no secret, only "1".
    expect(hint).toMatch(/^admin_hint=1; Path=\/; Max-Age=28800; SameSite=Lax$/);
    // The device cookie (ADR 020): signed, HttpOnly, only ever sent back by this site's own forms.
    expect(device).toMatch(
      /^device=[\w-]{22}\.\d+\.[\w-]{43}; Path=\/; Max-Age=7776000; SameSite=Strict; HttpOnly$/,
    );
    const staff = await login(STAFF);
    expect(await staff.json()).toEqual({
      id: target.staffId,
      username: STAFF.username,
      role: null,
      isAdmin: false,
    });
    expect(staff.headers.getSetCookie().map((cookie) => cookie.split("=")[0])).toEqual(["session", "device"]);
  });

  it("gives an unknown user and a wrong password the same answer", async () => {
    const answers = await Promise.all(
      [
        { username: "nobody-here", password: ADMIN.password },
        { ...ADMIN, password: "not the passphrase" },
      ].map(async (body) => {
        const response = await login(body);
        return {
          status: response.status,
          body: await response.text(),
          cookies: response.headers.getSetCookie(),
        };
      }),
    );
    expect(answers[0]).toEqual({ status: 401, body: '{"message":"Invalid credentials"}', cookies: [] });
    expect(answers[1]).toEqual(answers[0]);
  });

  it("uses a Secure __Host- cookie over HTTPS (behind a trusted proxy)", async () => {
    const origin = target.server.url.replace("http://", "https://");
    const https = { "X-Forwarded-Proto": "https", Origin: origin };
    const response = await login(ADMIN, https);
    expect(response.status).toBe(200);
    const [session] = response.headers.getSetCookie();
    expect(session).toMatch(
      /^__Host-session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=28800; SameSite=Lax; Secure; HttpOnly$/,
    );
    const cookie = session?.split(";")[0] ?? "";
    const user = await fetch(`${target.server.url}/api/user`, { headers: { Cookie: cookie, ...https } });
    expect(user.status).toBe(200);
    const logout = await fetch(`${target.server.url}/api/logout`, {
      method: "POST",
      headers: { Cookie: cookie, ...https },
    });
    expect(logout.headers.getSetCookie()[0]).toMatch(
      /^__Host-session=; Path=\/; Max-Age=0; SameSite=Lax; Secure; HttpOnly$/,
    );
  });

  it("deletes the session on logout: the old cookie then opens nothing", async () => {
    const cookie = await signIn(target.server.url, ADMIN.username, ADMIN.password);
    const token = /session=([^;]+)/.exec(cookie)?.[1] ?? "";
    const rows = () =>
      target.database.db
        .selectFrom("sessions")
        .select("idHash")
        .where("idHash", "=", hashToken(token))
        .execute();
    expect(await rows()).toHaveLength(1);
    const response = await fetch(`${target.server.url}/api/logout`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: target.server.url },
    });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()).toEqual([
      "session=; Path=/; Max-Age=0; SameSite=Lax; HttpOnly",
      "admin_hint=; Path=/; Max-Age=0; SameSite=Lax",
    ]);
    expect(await rows()).toEqual([]);
    expect((await fetch(`${target.server.url}/api/user`, { headers: { Cookie: cookie } })).status).toBe(401);
    expect(
      (await fetch(`${target.server.url}/api/admin/leads`, { headers: { Cookie: cookie } })).status,
    ).toBe(401);
  });

  it("throttles a username from one client after 5 failures and a client after 20, with 429, a message and Retry-After", async () => {
    const attempt = (username: string, password: string, client = newClient()) =>
      login({ username, password }, { "X-Forwarded-For": client });
    const guesser = "203.0.113.98";
    for (let n = 0; n < 5; n++)
      expect((await attempt(STAFF.username, `wrong ${n}`, guesser)).status).toBe(401);
    const throttled = await attempt(STAFF.username, STAFF.password, guesser);
    expect(throttled.status).toBe(429);
    expect(await throttled.json()).toEqual({
      message: expect.stringMatching(/^Too many login attempts\. Please try again in \d+ minutes?\.$/),
    });
    const retryAfter = Number(throttled.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(throttled.headers.getSetCookie()).toEqual([]);
    // The account's owner, from their own address, still signs in (issue 9 point 3).
    expect((await attempt(STAFF.username, STAFF.password)).status).toBe(200);

    const client = "203.0.113.99";
    for (let n = 0; n < 20; n++)
      expect((await attempt(`guess-${n}`, "password guess", client)).status).toBe(401);
    const blocked = await attempt(ADMIN.username, ADMIN.password, client);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toMatch(/^\d+$/);
    // The admin, signing in from elsewhere, is not locked out by someone else's guessing.
    expect((await attempt(ADMIN.username, ADMIN.password)).status).toBe(200);
  });
});

describe.skipIf(!(await checkPostgres()))("sessions across two app instances on one PostgreSQL", () => {
  let first: Target;
  let second: RunningServer;
  beforeAll(async () => {
    first = await startTarget("postgres");
    second = await startServer({ DATABASE_URL: first.databaseUrl, LOG_LEVEL: "error", ...SESSION_ENV });
  }, 60_000);
  afterAll(async () => {
    await second?.stop();
    await first?.cleanup();
  });

  it("recognises a session opened on one instance on the other, and ends it everywhere on logout", async () => {
    const cookie = await signIn(first.server.url, ADMIN.username, ADMIN.password);
    const user = await fetch(`${second.url}/api/user`, { headers: { Cookie: cookie } });
    expect(await user.json()).toMatchObject({ username: ADMIN.username, isAdmin: true });
    expect((await fetch(`${second.url}/api/admin/leads`, { headers: { Cookie: cookie } })).status).toBe(200);
    const logout = await fetch(`${second.url}/api/logout`, { method: "POST", headers: { Cookie: cookie } });
    expect(logout.status).toBe(200);
    expect((await fetch(`${first.server.url}/api/user`, { headers: { Cookie: cookie } })).status).toBe(401);
  });

  it("refuses a disabled account's open session on every instance at its next request", async () => {
    const colleague = { username: "two-instance-colleague", password: "two instance passphrase" };
    await createAccount(first.databaseUrl, { ...colleague, isAdmin: true });
    const theirs = await signIn(first.server.url, colleague.username, colleague.password);
    expect((await fetch(`${second.url}/api/admin/leads`, { headers: { Cookie: theirs } })).status).toBe(200);
    const admin = await signIn(first.server.url, ADMIN.username, ADMIN.password);
    const list = (await (
      await fetch(`${second.url}/api/admin/users`, { headers: { Cookie: admin } })
    ).json()) as { id: number; username: string }[];
    const id = list.find((user) => user.username === colleague.username)?.id;
    const disable = await fetch(`${second.url}/api/admin/users/${id}`, {
      method: "PATCH",
      headers: { Cookie: admin, "Content-Type": "application/json" },
      body: JSON.stringify({ disabled: true }),
    });
    expect(disable.status).toBe(200);
    for (const server of [first.server.url, second.url]) {
      expect((await fetch(`${server}/api/user`, { headers: { Cookie: theirs } })).status).toBe(401);
      const page = await fetch(`${server}/admin/dashboard`, {
        headers: { Cookie: theirs },
        redirect: "manual",
      });
      expect(page.headers.get("location")).toMatch(/^\/admin\/login\?next=/);
    }
    await expect(signIn(second.url, colleague.username, colleague.password)).rejects.toThrow(/401/);
  });
});

describe("the first admin [sqlite]", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "first-admin-"));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("has no default credentials: start-up says how to create one, then ADMIN_USERNAME/ADMIN_PASSWORD create it once", async () => {
    const DATABASE_URL = join(dir, "first.sqlite");
    const empty = await startServer({ DATABASE_URL });
    await empty.stop();
    expect(empty.startupOutput).toContain(
      "No admin account yet: create one with `npm run admin:create -- <username>`",
    );

    const created = await startServer({
      DATABASE_URL,
      ADMIN_USERNAME: "first-admin",
      ADMIN_PASSWORD: "first admin passphrase",
    });
    try {
      expect(created.startupOutput).toContain('Created the admin "first-admin" from ADMIN_USERNAME');
      expect(created.startupOutput).not.toContain("first admin passphrase");
      expect(created.startupOutput).not.toContain("No admin account yet");
      await signIn(created.url, "first-admin", "first admin passphrase");
    } finally {
      await created.stop();
    }

    // Started again with another password in the environment: the account is not touched.
    const again = await startServer({
      DATABASE_URL,
      ADMIN_USERNAME: "first-admin",
      ADMIN_PASSWORD: "a different passphrase",
    });
    try {
      expect(again.startupOutput).not.toMatch(/Created the admin|No admin account yet/);
      await signIn(again.url, "first-admin", "first admin passphrase");
      await expect(signIn(again.url, "first-admin", "a different passphrase")).rejects.toThrow(/401/);
    } finally {
      await again.stop();
    }
    const database = openDatabase(DATABASE_URL, { poolSize: 1 });
    try {
      const users = await database.db
        .selectFrom("users")
        .select(["username", "isAdmin", "passwordHash"])
        .execute();
      expect(users).toEqual([
        { username: "first-admin", isAdmin: 1, passwordHash: expect.stringMatching(/^scrypt\$/) },
      ]);
    } finally {
      await database.close();
    }
    // Three server start-ups, each migrating: more than the default 30 s while other suites run.
  }, 90_000);
});
