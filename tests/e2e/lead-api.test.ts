import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { INVESTOR_MESSAGE, LEAD_LIMITS } from "../../app/features/leads/lead-schema.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { checkPostgres, createPostgresSchema } from "../support/databases.ts";

// POST /api/demo-request against the production server, once on SQLite and once on PostgreSQL:
// what a client gets back, and what is (or is not) stored.

const demo = {
  fullName: "Amara Okafor",
  email: "amara@okafor-build.co.uk",
  company: "Okafor Build Ltd",
  phone: "+44 7700 900123",
  message: "40 subcontracts per project",
};
const investor = {
  fullName: "Jonas Berg",
  company: "Nordic Angels",
  email: "jonas@nordicangels.se",
  phone: "+46 70 12",
  investorType: { angel: false, vc: true, introducer: true, other: false },
  otherDetails: "",
  requestType: "investor",
  message: INVESTOR_MESSAGE,
};

const RATE_LIMIT = 5;
let clientNumber = 0;
/** Each test speaks as its own client (the servers trust one proxy), so rate limits stay apart. */
const newClient = () => `198.51.100.${++clientNumber}`;

/**
 * A POST that keeps sending while the server answers. The server refuses an oversized body as soon as
 * it knows (and closes the connection), before the client has finished sending; fetch() reports
 * that as a socket error, while a browser or curl reads the answer, as this does.
 */
function rawPost(baseUrl: string, headers: Record<string, string>, bytes: number) {
  return new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
    const request = httpRequest(new URL("/api/demo-request", baseUrl), {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": newClient(), ...headers },
    });
    let answered = false;
    request.on("response", (response) => {
      answered = true;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, body, connection: response.headers.connection }),
      );
      response.on("error", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    // Writing after the server closed the connection fails (EPIPE); only an error before any answer counts.
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, "x");
    request.write('{"message":"');
    let sent = 0;
    const pump = () => {
      while (sent < bytes && !answered && !request.destroyed) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      if (!request.destroyed) request.end();
    };
    pump();
  });
}

type Target = { server: RunningServer; database: AppDatabase; cleanup: () => Promise<void> };

async function startTarget(kind: "sqlite" | "postgres", extraEnv: Record<string, string> = {}) {
  let databaseUrl: string;
  let dropDatabase: () => Promise<void>;
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "lead-api-"));
    databaseUrl = join(dir, "api.sqlite");
    dropDatabase = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const schema = await createPostgresSchema();
    databaseUrl = schema.url;
    dropDatabase = schema.drop;
  }
  const env = {
    DATABASE_URL: databaseUrl,
    TRUST_PROXY: "1",
    LEAD_RATE_LIMIT: String(RATE_LIMIT),
    LEAD_MIN_FILL_SECONDS: "1",
    ...extraEnv,
  };
  const server = await startServer(env);
  const database = openDatabase(databaseUrl, { poolSize: 2 });
  return {
    env,
    server,
    database,
    async cleanup() {
      await server.stop();
      await database.close();
      await dropDatabase();
    },
  } satisfies Target & { env: Record<string, string> };
}

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`POST /api/demo-request [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    let target: Awaited<ReturnType<typeof startTarget>>;
    let timeCookie = "";

    beforeAll(async () => {
      if (!available) return;
      target = await startTarget(kind);
      // A visitor's browser gets the time-trap cookie with any page; then they take a moment to type.
      const page = await fetch(`${target.server.url}/demo`);
      timeCookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      await new Promise((resolve) => setTimeout(resolve, 1100));
    }, 60_000);
    afterAll(async () => {
      await target?.cleanup();
    });

    const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
      fetch(`${target.server.url}/api/demo-request`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Forwarded-For": newClient(),
          Cookie: timeCookie,
          ...headers,
        },
        body,
      });
    const leadCount = async () => {
      const row = await target.database.db
        .selectFrom("leads")
        .select((eb) => eb.fn.countAll().as("count"))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    };
    const storedLead = (id: number) =>
      target.database.db.selectFrom("leads").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

    describe.skipIf(!available)("", () => {
      it("stores a demo request and answers 201 with its id", async () => {
        const response = await post(JSON.stringify({ ...demo, unknownField: "ignored" }));
        expect(response.status).toBe(201);
        const body = (await response.json()) as { id: number };
        expect(body.id).toBeGreaterThan(0);
        const row = await storedLead(body.id);
        expect(row).toMatchObject({
          requestType: "demo",
          fullName: demo.fullName,
          email: demo.email,
          company: demo.company,
          phone: demo.phone,
          message: demo.message,
          status: "new",
        });
        expect(Number(row.isSpam)).toBe(0);
      });

      it("stores an investor submission with its investor types", async () => {
        const response = await post(JSON.stringify(investor));
        expect(response.status).toBe(201);
        const row = await storedLead(((await response.json()) as { id: number }).id);
        expect(row).toMatchObject({ requestType: "investor", message: INVESTOR_MESSAGE, otherDetails: null });
        expect(
          [row.investorAngel, row.investorVc, row.investorIntroducer, row.investorOther].map(Number),
        ).toEqual([0, 1, 1, 0]);
      });

      it("keeps the message an investor lead is sent with (issue 22)", async () => {
        const message = "Family office, tickets of £250k–£1m.\nPlease call after 3pm.";
        const response = await post(
          JSON.stringify({ ...investor, email: "jonas.msg@nordicangels.se", message }),
        );
        expect(response.status).toBe(201);
        const row = await storedLead(((await response.json()) as { id: number }).id);
        expect(row).toMatchObject({ requestType: "investor", message });
        // None sent: the landing page's fixed message (SPEC section 3).
        const { message: _omitted, ...withoutMessage } = investor;
        const plain = await post(JSON.stringify({ ...withoutMessage, email: "jonas.plain@nordicangels.se" }));
        expect(plain.status).toBe(201);
        const plainRow = await storedLead(((await plain.json()) as { id: number }).id);
        expect(plainRow.message).toBe(INVESTOR_MESSAGE);
      });

      const invalid: [string, Record<string, unknown>, Record<string, string>][] = [
        ["an empty name", { ...demo, fullName: "" }, { fullName: "Please enter your full name" }],
        ["a bad email", { ...demo, email: "amara@" }, { email: "Please enter a valid email address" }],
        [
          "an email with spaces",
          { ...demo, email: "a b@c.de" },
          { email: "Please enter a valid email address" },
        ],
        ["an empty company", { ...demo, company: " " }, { company: "Please enter your company name" }],
        ["a 6-character phone", { ...demo, phone: "123456" }, { phone: "Please enter a valid phone number" }],
        [
          "a phone made of letters",
          { ...demo, phone: "call me maybe" },
          { phone: "Please enter a valid phone number" },
        ],
        ["a missing phone", { ...demo, phone: undefined }, { phone: "Please enter a valid phone number" }],
        [
          "an investor name of one letter",
          { ...investor, fullName: "J" },
          { fullName: "Full name must be at least 2 characters" },
        ],
        [
          "an investor company of one letter",
          { ...investor, company: "N" },
          { company: "Company name must be at least 2 characters" },
        ],
        [
          "an investor phone of 4 digits",
          { ...investor, phone: "1234" },
          { phone: "Please enter a valid phone number" },
        ],
        [
          "an oversized name",
          { ...demo, fullName: "x".repeat(LEAD_LIMITS.fullName + 1) },
          { fullName: `Please use at most ${LEAD_LIMITS.fullName} characters` },
        ],
        [
          "an oversized message",
          { ...demo, message: "x".repeat(LEAD_LIMITS.message + 1) },
          { message: `Please use at most ${LEAD_LIMITS.message} characters` },
        ],
        [
          "oversized other details",
          {
            ...investor,
            investorType: { other: true },
            otherDetails: "x".repeat(LEAD_LIMITS.otherDetails + 1),
          },
          { otherDetails: `Please use at most ${LEAD_LIMITS.otherDetails} characters` },
        ],
        ["a number as name", { ...demo, fullName: 42 }, { fullName: "Please check the highlighted fields" }],
        ["null as email", { ...demo, email: null }, { email: "Please check the highlighted fields" }],
        [
          "an array as company",
          { ...demo, company: ["Okafor"] },
          { company: "Please check the highlighted fields" },
        ],
        [
          "a string as investor types",
          { ...investor, investorType: "angel" },
          { investorType: "Please check the highlighted fields" },
        ],
      ];

      it.each(invalid)(
        "refuses %s with 400 and the field's message, storing nothing",
        async (_name, body, errors) => {
          const before = await leadCount();
          const response = await post(JSON.stringify(body));
          expect(response.status).toBe(400);
          const answer = (await response.json()) as { message: string; errors: Record<string, string> };
          expect(answer.errors).toMatchObject(errors);
          expect(answer.message).toContain(Object.values(errors)[0]);
          expect(await leadCount()).toBe(before);
        },
      );

      it("reports every invalid field at once", async () => {
        const response = await post(JSON.stringify({ fullName: "", email: "x", company: "", phone: "1" }));
        const answer = (await response.json()) as { errors: Record<string, string> };
        expect(Object.keys(answer.errors).sort()).toEqual(["company", "email", "fullName", "phone"]);
      });

      const refused: [string, BodyInit | null, Record<string, string>, number][] = [
        ["malformed JSON", '{"fullName": "Amara",', {}, 400],
        ["a JSON array", JSON.stringify([demo]), {}, 400],
        ["a JSON string", JSON.stringify("hello"), {}, 400],
        ["an empty body", "", {}, 400],
        ["a text/plain body", JSON.stringify(demo), { "Content-Type": "text/plain" }, 415],
        [
          "a urlencoded body",
          new URLSearchParams(demo).toString(),
          { "Content-Type": "application/x-www-form-urlencoded" },
          415,
        ],
        ["a body just over 16 KB", JSON.stringify({ ...demo, message: "x".repeat(16 * 1024) }), {}, 413],
      ];

      it.each(refused)(
        "answers %s with its 4xx and a message, storing nothing",
        async (_name, body, headers, status) => {
          const before = await leadCount();
          const response = await post(body, headers);
          expect(response.status).toBe(status);
          expect(((await response.json()) as { message: string }).message.length).toBeGreaterThan(5);
          expect(await leadCount()).toBe(before);
        },
      );

      it.each([
        ["declares 5 MB", { "Content-Length": String(5 * 1024 * 1024) }],
        ["is chunked and declares no length", {}],
      ])("answers 413 to a body over 16 KB that %s, storing nothing", async (_name, headers) => {
        const before = await leadCount();
        const { status, body } = await rawPost(target.server.url, headers, 5 * 1024 * 1024);
        expect(status).toBe(413);
        expect(JSON.parse(body)).toMatchObject({ message: "Request body too large: the limit is 16 KB." });
        expect(await leadCount()).toBe(before);
      });

      it("answers the next request on a kept-alive connection after refusing a body declared too large", async () => {
        // Node's default agent reuses the connection of a refused upload: the server must not read
        // the next request as the rest of the old body (it once answered a bare 400 here).
        for (let round = 0; round < 4; round++) {
          const declared = await rawPost(
            target.server.url,
            { "Content-Length": String(5 * 1024 * 1024) },
            5 * 1024 * 1024,
          );
          expect(declared.status).toBe(413);
          // The body was left unread, so the connection closes, and the answer says so: a client
          // that put it back in its pool sent its next request into a closing connection (EPIPE).
          expect(declared.connection).toBe("close");
          const next = await rawPost(target.server.url, {}, 5 * 1024 * 1024);
          expect(next.status).toBe(413);
          expect(next.connection).toBe("close");
          expect(JSON.parse(next.body)).toMatchObject({
            message: "Request body too large: the limit is 16 KB.",
          });
        }
      });

      it("answers GET with 405", async () => {
        const response = await fetch(`${target.server.url}/api/demo-request`);
        expect(response.status).toBe(405);
        expect(response.headers.get("allow")).toBe("POST");
      });

      it(`limits a client to ${RATE_LIMIT} submissions a window: 429 with Retry-After, nothing stored`, async () => {
        const client = newClient();
        for (let i = 0; i < RATE_LIMIT; i++) {
          expect((await post(JSON.stringify(demo), { "X-Forwarded-For": client })).status).toBe(201);
        }
        const before = await leadCount();
        const refusedResponse = await post(JSON.stringify(demo), { "X-Forwarded-For": client });
        expect(refusedResponse.status).toBe(429);
        expect(Number(refusedResponse.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(((await refusedResponse.json()) as { message: string }).message).toMatch(/^Too many requests/);
        expect(await leadCount()).toBe(before);
        // Another client is not affected.
        expect((await post(JSON.stringify(demo))).status).toBe(201);
      });

      it("stores a filled honeypot flagged as spam, with the same 201 answer", async () => {
        const response = await post(JSON.stringify({ ...demo, _gotcha: "https://spam.example" }));
        expect(response.status).toBe(201);
        const row = await storedLead(((await response.json()) as { id: number }).id);
        expect(Number(row.isSpam)).toBe(1);
        expect(row.spamReason).toBe("honeypot field filled in");
      });

      it("keeps a lead without the page's time cookie, or sent too soon after it, in the list, marked for review", async () => {
        // The reproduction: an integration (curl) posts without any cookie.
        const noCookie = await post(JSON.stringify(demo), { Cookie: "" });
        expect(noCookie.status).toBe(201);
        const row = await storedLead(((await noCookie.json()) as { id: number }).id);
        expect(Number(row.isSpam)).toBe(0);
        expect(row.source).toBe("api");
        expect(row.spamReason).toBe("no page cookie (sent without visiting the site)");

        const page = await fetch(`${target.server.url}/`);
        const freshCookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
        const tooFast = await post(JSON.stringify(demo), { Cookie: freshCookie });
        const fastRow = await storedLead(((await tooFast.json()) as { id: number }).id);
        expect(Number(fastRow.isSpam)).toBe(0);
        expect(fastRow.spamReason).toMatch(/^sent \d+ ms after the first page view$/);
      });

      it("holds a link in the name that comes without the page's cookie", async () => {
        const response = await post(JSON.stringify({ ...demo, fullName: "Loans https://loans.example" }), {
          Cookie: "",
        });
        expect(response.status).toBe(201);
        const row = await storedLead(((await response.json()) as { id: number }).id);
        expect(Number(row.isSpam)).toBe(1);
      });
    });
  });
}

describe("the rate limit across app instances [postgres]", async () => {
  const available = await checkPostgres();
  let first: Awaited<ReturnType<typeof startTarget>>;
  let second: RunningServer;
  beforeAll(async () => {
    if (!available) return;
    first = await startTarget("postgres", { LEAD_RATE_LIMIT: "3", LEAD_MIN_FILL_SECONDS: "0" });
    second = await startServer(first.env);
  }, 60_000);
  afterAll(async () => {
    await second?.stop();
    await first?.cleanup();
  });

  it.skipIf(!available)("counts one client's submissions on every instance", async () => {
    const client = newClient();
    const send = (server: RunningServer) =>
      fetch(`${server.url}/api/demo-request`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": client },
        body: JSON.stringify(demo),
      });
    expect((await send(first.server)).status).toBe(201);
    expect((await send(second)).status).toBe(201);
    expect((await send(first.server)).status).toBe(201);
    expect((await send(second)).status).toBe(429);
    expect((await send(first.server)).status).toBe(429);
  });
});
