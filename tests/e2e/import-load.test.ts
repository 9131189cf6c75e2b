import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/db/database.server.ts";
import { makeImage } from "../../app/features/content/media/testing/image-fixtures.ts";
import {
  commitCsv,
  eventLoopMaxLagMs,
  leadsCsv,
  peakRss,
  sampleHomePage,
  undoImport,
  untilAccepted,
  uploadImage,
} from "../../scripts/lib/import-load.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { checkPostgres, createEmptyDatabaseUrl } from "../support/databases.ts";
import { createAccount, signIn } from "./support/accounts.ts";

// Issue 32, points 6 and 7, against the production server on each database:
// - three 10,000-row CSV commits at once: every GET / meanwhile is answered, the server's event loop
//   never stalls long (its own monitorEventLoopDelay, read from /metrics), all 30,000 leads are
//   stored in three batches, and an undo still removes one batch whole;
// - 20 image uploads of nearly 10 MB at once, then 6 imports of nearly 5 MB at once: every one is
//   eventually done (a busy refusal says when to come back), and the server's peak RSS (VmHWM, read
//   from /proc) stays under 512 MB.
//
// The stall bound is generous: 1 s, where a quiet machine shows ~20-30 ms and a machine loaded
// twenty times over showed 90-530 ms (the process waiting for a core, not our code: each part of
// the commit holds the loop for at most ~30 ms of CPU). Before the fix one commit held the loop for
// its whole transaction: 0.5 s of CPU for these 400-character rows, a 5.2 s stall measured on the
// loaded machine (the issue measured 2.4 s).

const PASSWORD = "Import load passphrase 32";
const MAX_STALL_MS = 1_000;
const MAX_RSS = 512 * 1024 * 1024;
const MB = 1024 * 1024;

/** A real PNG (a small gradient) followed by bytes that make the upload nearly 10 MB: libvips reads the
 * image and ignores the rest, as for a polyglot, so the costly part is the body, not the pixels. */
async function nearlyTenMegabyteUpload(): Promise<Uint8Array> {
  const png = await makeImage("png", { width: 800, height: 600 });
  const padded = new Uint8Array(Math.round(9.5 * MB));
  padded.set(png);
  for (let i = png.length; i < padded.length; i++) padded[i] = (i * 7919) & 0xff;
  return padded;
}

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`imports and uploads under load [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    let server: RunningServer;
    let databaseUrl: string;
    let cookie = "";
    const cleanups: (() => Promise<void> | void)[] = [];

    /** A fresh server for each case: its peak RSS is that case's alone. */
    async function freshServer() {
      await server?.stop();
      server = await startServer({
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: "error",
        LEAD_RATE_LIMIT: "0",
        LEAD_MIN_FILL_SECONDS: "0",
      });
      cookie = await signIn(server.url, "load-admin", PASSWORD);
    }

    beforeAll(async () => {
      if (!available) return;
      const database = await createEmptyDatabaseUrl(kind);
      cleanups.push(database.dispose);
      databaseUrl = database.url;
      server = await startServer({
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: "error",
        LEAD_RATE_LIMIT: "0",
        LEAD_MIN_FILL_SECONDS: "0",
      });
      await createAccount(databaseUrl, { username: "load-admin", password: PASSWORD, isAdmin: true });
      cookie = await signIn(server.url, "load-admin", PASSWORD);
    }, 120_000);

    afterAll(async () => {
      await server?.stop();
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    async function count(sql: "leads" | "batches"): Promise<number> {
      const database = openDatabase(databaseUrl, { poolSize: 1 });
      try {
        const table = sql === "leads" ? "leads" : "leadImports";
        const row = await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow();
        return Number(row.n);
      } finally {
        await database.close();
      }
    }

    it.skipIf(!available)(
      "20 uploads of nearly 10 MB at once: all stored, the server under 512 MB",
      async () => {
        const image = await nearlyTenMegabyteUpload();
        const statuses = await Promise.all(
          Array.from({ length: 20 }, () => untilAccepted(() => uploadImage(server.url, cookie, image))),
        );
        expect(statuses).toEqual(Array(20).fill(201));
        const peak = peakRss(server.pid ?? 0);
        console.log(`[${kind}] 20 uploads at once: server peak RSS ${(peak / MB).toFixed(0)} MB`);
        expect(peak, `peak RSS ${(peak / MB).toFixed(0)} MB`).toBeLessThan(MAX_RSS);
      },
      600_000,
    );

    it.skipIf(!available)(
      "6 imports of nearly 5 MB at once: all committed, the server under 512 MB",
      async () => {
        await freshServer();
        const before = await count("leads");
        const csvs = [1, 2, 3, 4, 5, 6].map((n) => leadsCsv(`${kind}-m${n}`, 10_000, 400));
        expect(Buffer.byteLength(csvs[0] ?? "")).toBeGreaterThan(4.5 * MB);
        const statuses = await Promise.all(
          csvs.map((csv) => untilAccepted(async () => (await commitCsv(server.url, cookie, csv)).status)),
        );
        expect(statuses).toEqual(Array(6).fill(201));
        expect(await count("leads")).toBe(before + 60_000);
        const peak = peakRss(server.pid ?? 0);
        console.log(`[${kind}] 6 imports at once: server peak RSS ${(peak / MB).toFixed(0)} MB`);
        expect(peak, `peak RSS ${(peak / MB).toFixed(0)} MB`).toBeLessThan(MAX_RSS);
      },
      600_000,
    );

    it.skipIf(!available)(
      "three 10,000-row commits at once keep the site answering; undo removes one batch whole",
      async () => {
        await freshServer();
        const leadsBefore = await count("leads");
        const batchesBefore = await count("batches");
        // Reads (and resets) the longest stall so far: what follows is measured from here.
        await eventLoopMaxLagMs(server.url);
        const csvs = ["a", "b", "c"].map((tag) => leadsCsv(`${kind}-${tag}`, 10_000, 400));
        const sampler = sampleHomePage(server.url);
        // Visitors keep sending the form meanwhile: each is stored (no lost lead).
        const submissions = (async () => {
          const statuses: number[] = [];
          for (let i = 0; i < 5; i++) {
            await new Promise((resolve) => setTimeout(resolve, 300));
            const response = await fetch(`${server.url}/api/demo-request`, {
              method: "POST",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify({
                fullName: `Visitor ${i}`,
                email: `visitor${i}.${kind}@site-during-import.example`,
                company: "Visiting Builders",
                phone: "+44 20 7946 0000",
              }),
            });
            await response.arrayBuffer();
            statuses.push(response.status);
          }
          return statuses;
        })();
        const results = await Promise.all(
          csvs.map(async (csv) => {
            let answer: Awaited<ReturnType<typeof commitCsv>> | undefined;
            await untilAccepted(async () => {
              answer = await commitCsv(server.url, cookie, csv);
              return answer.status;
            });
            return answer;
          }),
        );
        const { latencies, failures } = await sampler.stop();
        const submitted = await submissions;
        const stall = await eventLoopMaxLagMs(server.url);
        console.log(
          `[${kind}] three 10,000-row commits at once: longest event-loop stall ${stall.toFixed(0)} ms, ` +
            `GET / ${latencies.length} answers, worst ${Math.max(...latencies).toFixed(0)} ms`,
        );

        expect(results.map((result) => result?.status)).toEqual([201, 201, 201]);
        expect(results.map((result) => result?.body.imported)).toEqual([10_000, 10_000, 10_000]);
        expect(failures).toEqual([]);
        expect(latencies.length).toBeGreaterThan(0);
        expect(stall, `longest event-loop stall ${stall.toFixed(0)} ms`).toBeLessThan(MAX_STALL_MS);
        expect(submitted).toEqual([201, 201, 201, 201, 201]);
        expect(await count("leads")).toBe(leadsBefore + 30_005);
        expect(await count("batches")).toBe(batchesBefore + 3);

        // One batch that can be undone: the undo removes exactly its 10,000 leads.
        const importId = results[1]?.body.importId ?? 0;
        expect(await undoImport(server.url, cookie, importId)).toBe(302);
        expect(await count("leads")).toBe(leadsBefore + 20_005);
      },
      600_000,
    );
  });
}
