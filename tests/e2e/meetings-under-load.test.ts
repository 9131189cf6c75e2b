import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { checkPostgres, createPostgresSchema } from "../support/databases.ts";

// Issue 34, correct under pressure, against production servers over HTTP: 200 prospects try to book
// the same time at once, across two instances on one PostgreSQL and on one SQLite instance, and
// exactly one booking per host free at that time succeeds (the others get 409 with fresh times; the
// database decides, ADR 039). And 10,000 slot queries from one address are limited like the forms,
// while another address is still answered.

const ADMIN = { username: "load-admin", password: "load admin passphrase" };
const SALES = ["load-sales-1", "load-sales-2", "load-sales-3"];
const ATTEMPTS = 200;
const SLOT_QUERIES = 10_000;
/** LEAD_RATE_LIMIT's default (10 a window) times the slot queries allowed per lead (6). */
const SLOT_QUERY_LIMIT = 60;

type Target = { servers: RunningServer[]; database: AppDatabase; cleanup(): Promise<void> };

async function startTarget(kind: "sqlite" | "postgres"): Promise<Target> {
  let url: string;
  let drop: () => Promise<void>;
  if (kind === "postgres") {
    const schema = await createPostgresSchema();
    url = schema.url;
    drop = schema.drop;
  } else {
    const dir = mkdtempSync(join(tmpdir(), "meetings-load-"));
    url = join(dir, "load.sqlite");
    drop = async () => rmSync(dir, { recursive: true, force: true });
  }
  const env = {
    DATABASE_URL: url,
    // Each attempt speaks as its own client through the one trusted proxy: the per-address limit
    // stays out of the race (it has its own test below).
    TRUST_PROXY: "1",
    LEAD_MIN_FILL_SECONDS: "0",
    LOG_LEVEL: "error",
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  };
  const first = await startServer(env);
  const servers = [first];
  const database = openDatabase(url, { poolSize: 2 });
  try {
    for (const username of SALES)
      await createUser(database.db, { username, password: "load sales passphrase", role: "sales" });
    if (kind === "postgres") servers.push(await startServer(env));
  } catch (error) {
    await Promise.all(servers.map((server) => server.stop()));
    await database.close();
    await drop();
    throw error;
  }
  return {
    servers,
    database,
    async cleanup() {
      await Promise.all(servers.map((server) => server.stop()));
      await database.close();
      await drop();
    },
  };
}

/** A client address of its own for attempt `i` (TEST-NET-2 and -3 and benchmark ranges only). */
const clientOf = (i: number) => `198.18.${(i >> 8) & 255}.${i & 255}`;

const postgres = await checkPostgres();

for (const kind of ["postgres", "sqlite"] as const) {
  describe.runIf(kind === "sqlite" || postgres)(`booking one time at once [${kind}]`, () => {
    let target: Target;
    beforeAll(async () => {
      target = await startTarget(kind);
    }, 120_000);
    afterAll(async () => {
      await target?.cleanup();
    });

    it(`gives ${ATTEMPTS} simultaneous attempts exactly one booking per free host`, {
      timeout: 120_000,
    }, async () => {
      const { servers, database } = target;
      const first = servers[0];
      if (!first) throw new Error("started");
      const slots = (await (await fetch(`${first.url}/api/meetings/slots?type=demo&days=14`)).json()) as {
        slots: { start: string }[];
      };
      const start = slots.slots[0]?.start;
      if (!start) throw new Error("the defaults offer times in the next fortnight");
      const hosts = 1 + SALES.length;

      const answers = await Promise.all(
        Array.from({ length: ATTEMPTS }, async (_, i) => {
          // Both instances on PostgreSQL, taking turns.
          const server = servers[i % servers.length] ?? first;
          const response = await fetch(`${server.url}/api/meetings`, {
            method: "POST",
            headers: { "Content-Type": "application/json", "X-Forwarded-For": clientOf(i) },
            body: JSON.stringify({
              type: "demo",
              start,
              fullName: `Racer ${i}`,
              email: `racer-${i}@example.com`,
              company: "Race Build Ltd",
              phone: "020 7946 0000",
            }),
          });
          return { status: response.status, body: (await response.json()) as Record<string, unknown> };
        }),
      );
      const booked = answers.filter((answer) => answer.status === 201);
      const refused = answers.filter((answer) => answer.status === 409);
      expect(booked).toHaveLength(hosts);
      expect(refused).toHaveLength(ATTEMPTS - hosts);
      expect(new Set(booked.map((answer) => answer.body.hostName)).size).toBe(hosts);
      for (const { body } of refused) {
        expect(body.message).toBe("That time is no longer available. Please choose another.");
        const fresh = body.slots as { start: string }[];
        expect(fresh.length).toBeGreaterThan(0);
        expect(fresh.map((slot) => slot.start)).not.toContain(start);
      }
      // What the database holds: one meeting per host at that time, each with its own blocks.
      const rows = await database.db
        .selectFrom("meetings")
        .select(["hostId", "status"])
        .where("startAt", "=", start)
        .execute();
      expect(rows).toHaveLength(hosts);
      expect(new Set(rows.map((row) => row.hostId)).size).toBe(hosts);
      expect(rows.every((row) => row.status === "booked")).toBe(true);
      const blocks = await database.db
        .selectFrom("meetingBlocks")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      // Thirty minutes in five-minute blocks, per host, and nothing else.
      expect(Number(blocks.n)).toBe(hosts * 6);
    });

    // On the SQLite instance, after the race (its addresses were others).
    if (kind === "sqlite")
      it("answers 10,000 slot queries from one address the limit's worth, then 429 with Retry-After, and another address still gets times", {
        timeout: 180_000,
      }, async () => {
        const server = target.servers[0];
        if (!server) throw new Error("started");
        const statuses = new Map<number, number>();
        let retryAfter: string | null = null;
        let next = 0;
        // Twenty at a time, keep-alive: bounded, loopback only.
        await Promise.all(
          Array.from({ length: 20 }, async () => {
            while (next < SLOT_QUERIES) {
              next++;
              const response = await fetch(`${server.url}/api/meetings/slots?type=demo&days=1`, {
                headers: { "X-Forwarded-For": "203.0.113.77" },
              });
              await response.arrayBuffer();
              statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
              if (response.status === 429) retryAfter ??= response.headers.get("retry-after");
            }
          }),
        );
        expect(Object.fromEntries(statuses)).toEqual({
          200: SLOT_QUERY_LIMIT,
          429: SLOT_QUERIES - SLOT_QUERY_LIMIT,
        });
        expect(Number(retryAfter)).toBeGreaterThan(0);
        const other = await fetch(`${server.url}/api/meetings/slots?type=demo&days=1`, {
          headers: { "X-Forwarded-For": "203.0.113.78" },
        });
        expect(other.status).toBe(200);
      });
  });
}
