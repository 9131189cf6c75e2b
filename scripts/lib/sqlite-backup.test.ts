import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { migrateToLatest } from "../../app/db/migrate.server.ts";
import { checkReadiness } from "../../app/db/readiness.server.ts";
import { leadRow } from "../../tests/support/lead-rows.ts";
import {
  BackupError,
  backupSqlite,
  DatabaseInUseError,
  inspectSqlite,
  restoreSqlite,
} from "./sqlite-backup.ts";

let dir: string;
let live: string;
let database: AppDatabase;

const leadCount = async (db: AppDatabase) =>
  Number(
    (
      await db.db
        .selectFrom("leads")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const addLeads = (db: AppDatabase, count: number, name = "Backed Up") =>
  db.db
    .insertInto("leads")
    .values(
      Array.from({ length: count }, (_, i) =>
        leadRow({ fullName: `${name} ${i}`, email: `b${i}@example.com` }),
      ),
    )
    .execute();

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "db-backup-"));
  live = join(dir, "app.sqlite");
  database = openDatabase(live);
  await migrateToLatest(database.db);
  await addLeads(database, 500);
});

afterEach(async () => {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

it("copies a consistent, checked database while the app keeps writing", async () => {
  // A server storing leads the whole time the backup runs: a commit per turn of the event loop (a
  // loop of microtasks alone would starve the backup's completion), bounded in case it never ends.
  let writing = true;
  const writer = (async () => {
    for (let i = 0; writing && i < 2000; i++) {
      await addLeads(database, 5, "During");
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  const target = join(dir, "backup.sqlite");
  let copy: Awaited<ReturnType<typeof backupSqlite>>;
  try {
    copy = await backupSqlite(live, target);
  } finally {
    writing = false;
    await writer;
  }
  expect(copy.integrity).toBe("ok");
  const leads = copy.tables.find((table) => table.name === "leads")?.rows ?? 0;
  // A snapshot: everything before the backup, whole batches of what came during it, nothing torn.
  expect(leads).toBeGreaterThanOrEqual(500);
  expect(leads % 5).toBe(0);
  expect(leads).toBeLessThanOrEqual(await leadCount(database));
  expect(inspectSqlite(target)).toMatchObject({ integrity: "ok" });
  // One file, nothing beside it.
  expect(readdirSync(dir).filter((name) => name.startsWith("backup.sqlite"))).toEqual(["backup.sqlite"]);
  // The copy is a working database of this build: the app can start on it.
  const restoredApp = openDatabase(target);
  try {
    await expect(checkReadiness(restoredApp.db)).resolves.toEqual({ ready: true });
    expect(await leadCount(restoredApp)).toBe(leads);
  } finally {
    await restoredApp.close();
  }
});

it("never overwrites a file, and leaves nothing behind when it fails", async () => {
  const target = join(dir, "taken.sqlite");
  writeFileSync(target, "someone's file");
  await expect(backupSqlite(live, target)).rejects.toThrow(/already exists/);
  await expect(backupSqlite(join(dir, "missing.sqlite"), join(dir, "new.sqlite"))).rejects.toThrow(
    /There is no database/,
  );
  expect(readdirSync(dir).filter((name) => name.includes("partial") || name === "new.sqlite")).toEqual([]);
});

it("restore drill: refuses while the app holds the database, then brings the backup back", async () => {
  const target = join(dir, "before-the-mistake.sqlite");
  await backupSqlite(live, target);
  // The mistake: every lead erased.
  await database.db.deleteFrom("leads").execute();
  expect(await leadCount(database)).toBe(0);

  // A server is running on the database: nothing is replaced.
  expect(() => restoreSqlite(target, live)).toThrow(DatabaseInUseError);
  expect(await leadCount(database)).toBe(0);

  // Stopped, the restore goes through and the app starts on the backup's data.
  await database.close();
  const restored = restoreSqlite(target, live);
  expect(restored.integrity).toBe("ok");
  expect(restored.tables.find((table) => table.name === "leads")?.rows).toBe(500);
  expect(existsSync(`${live}-wal`) && existsSync(`${live}.restoring`)).toBe(false);
  database = openDatabase(live);
  expect(await leadCount(database)).toBe(500);
  await expect(checkReadiness(database.db)).resolves.toEqual({ ready: true });
  await addLeads(database, 1, "After");
  expect(await leadCount(database)).toBe(501);
});

it("refuses a file that is not a sound Clausebridge database and keeps the current one", async () => {
  await database.close();
  const garbage = join(dir, "garbage.sqlite");
  writeFileSync(garbage, "not a database at all, just some bytes ".repeat(200));
  expect(() => restoreSqlite(garbage, live)).toThrow(BackupError);
  const otherApp = join(dir, "other.sqlite");
  const other = openDatabase(otherApp);
  await other.db.schema.createTable("things").addColumn("id", "integer").execute();
  await other.close();
  expect(() => restoreSqlite(otherApp, live)).toThrow(/not a Clausebridge database/);
  database = openDatabase(live);
  expect(await leadCount(database)).toBe(500);
});

it("the commands print the figures, and restore asks before replacing", () => {
  const env = { ...process.env, DATABASE_URL: live };
  const run = (args: string[]) =>
    spawnSync(process.execPath, args, { cwd: join(import.meta.dirname, "../.."), env, encoding: "utf8" });
  const target = join(dir, "cli.sqlite");
  const made = run(["scripts/db-backup.ts", target]);
  expect(made.status, made.stderr).toBe(0);
  expect(made.stdout).toMatch(/integrity ok/);
  expect(made.stdout).toMatch(/leads\s+500/);
  // No terminal to ask on and no --yes: nothing happens.
  const unconfirmed = run(["scripts/db-restore.ts", target]);
  expect(unconfirmed.status).toBe(1);
  expect(unconfirmed.stderr).toContain("confirm on a terminal, or pass --yes");
  // Confirmed, but the database is open here (as a running server would hold it).
  const refused = run(["scripts/db-restore.ts", target, "--yes"]);
  expect(refused.status).toBe(1);
  expect(refused.stderr).toContain("is in use by another process");
});
