import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../app/db/database.server.ts";
import { migrateToLatest } from "../app/db/migrate.server.ts";
import { PURGE_JOB } from "../app/lib/purge.server.ts";
import { checkPostgres, createPostgresSchema } from "../tests/support/databases.ts";
import { leadRow } from "../tests/support/lead-rows.ts";

// `npm run db:purge [-- --dry-run]` as an operator runs it, on both databases: the dry run prints
// the counts and changes nothing, the purge does what it printed, a purge running elsewhere (its
// lease held) makes the command refuse. Counts only: no name or email is ever printed.

const script = join(import.meta.dirname, "db-purge.ts");
const LONG_AGO = "2023-01-10T09:00:00.000Z";

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`npm run db:purge [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    let dir: string;
    let url: string;
    let database: AppDatabase;
    let dropSchema = async () => {};
    beforeAll(async () => {
      if (!available) return;
      dir = mkdtempSync(join(tmpdir(), "purge-cli-"));
      if (kind === "sqlite") url = join(dir, "cli.sqlite");
      else {
        const schema = await createPostgresSchema();
        url = schema.url;
        dropSchema = schema.drop;
      }
      database = openDatabase(url, { poolSize: 1 });
      await migrateToLatest(database.db);
      await database.db
        .insertInto("leads")
        .values([
          leadRow({
            fullName: "Old Olga",
            email: "olga@example.com",
            createdAt: LONG_AGO,
            updatedAt: LONG_AGO,
          }),
          leadRow({
            fullName: "Spam Sam",
            email: "sam@example.com",
            isSpam: 1,
            createdAt: LONG_AGO,
            updatedAt: LONG_AGO,
          }),
          leadRow({ fullName: "New Nia", email: "nia@example.com" }),
        ])
        .execute();
    });
    afterAll(async () => {
      if (!available) return;
      await database.close();
      await dropSchema();
      rmSync(dir, { recursive: true, force: true });
    });
    if (!available) return;

    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        // cwd: the temporary folder, so no developer's .env is read.
        const child = spawn(process.execPath, [script, ...args], {
          cwd: dir,
          env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: "silent" },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk) => (stdout += chunk));
        child.stderr.on("data", (chunk) => (stderr += chunk));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stdout, stderr }));
      });
    const names = async () =>
      (await database.db.selectFrom("leads").select("fullName").orderBy("id").execute()).map(
        (row) => row.fullName,
      );
    const line = (stdout: string, label: RegExp) => stdout.split("\n").find((text) => label.test(text)) ?? "";

    it("prints what a dry run would remove, changes nothing, then purges exactly that", async () => {
      const dry = await run(["--dry-run"]);
      expect(dry.code).toBe(0);
      expect(dry.stdout).toMatch(/dry run, nothing changed/);
      expect(line(dry.stdout, /^ {2}leads without activity for 24 months \(anonymised\)/)).toMatch(/ 1$/);
      expect(line(dry.stdout, /^ {2}held spam untouched for 30 days \(deleted\)/)).toMatch(/ 1$/);
      expect(await names()).toEqual(["Old Olga", "Spam Sam", "New Nia"]);

      const real = await run([]);
      expect(real.code).toBe(0);
      expect(real.stdout).toMatch(/purged:/);
      expect(line(real.stdout, /leads without activity/)).toMatch(/ 1$/);
      expect(`${dry.stdout}${real.stdout}`).not.toMatch(/olga|sam@|Spam Sam|nia/i);
      expect(await names()).toEqual(["", "New Nia"]);
    });

    it("refuses while another instance holds the purge's lease", async () => {
      await database.db
        .insertInto("jobLeases")
        .values({
          name: PURGE_JOB,
          lockedBy: "elsewhere",
          lockedUntil: "2999-01-01T00:00:00.000Z",
          finishedAt: null,
          lastResult: null,
        })
        .onConflict((conflict) =>
          conflict
            .column("name")
            .doUpdateSet({ lockedBy: "elsewhere", lockedUntil: "2999-01-01T00:00:00.000Z" }),
        )
        .execute();
      const busy = await run([]);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toMatch(/another instance is purging right now; nothing done/);
      // A dry run only reads: it answers all the same.
      await expect(run(["--dry-run"])).resolves.toMatchObject({ code: 0 });
    });
  });
}
