import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "./database.server.ts";
import { DatabaseBusyError, isDatabaseUnavailable } from "./unavailable.server.ts";

// ADR 008: SQLite never waits on the event loop. Another connection stands in for another process:
// it holds the write lock while the app's database reads, writes and reports.

describe("SQLite under a lock held elsewhere", () => {
  let dir: string;
  let file: string;
  let database: AppDatabase;
  let other: DatabaseSync;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "sqlite-dialect-"));
    file = join(dir, "test.sqlite");
    database = openDatabase(file, { waitMs: 400 });
    await sql`create table notes (id integer primary key, body text not null)`.execute(database.db);
    await database.db
      .insertInto("notes" as never)
      .values({ body: "first" } as never)
      .execute();
    other = new DatabaseSync(file);
  });

  afterEach(async () => {
    if (other.isTransaction) other.exec("ROLLBACK");
    other.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const count = async () =>
    Number((await sql<{ n: number }>`select count(*) as n from notes`.execute(database.db)).rows[0]?.n);

  it("reads while another connection holds the write lock, without waiting", async () => {
    other.exec("BEGIN IMMEDIATE");
    const started = performance.now();
    expect(await count()).toBe(1);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it("gives up a write after the wait bound with DatabaseBusyError, keeping the event loop free", async () => {
    other.exec("BEGIN IMMEDIATE");
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const write = database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("notes" as never)
        .values({ body: "blocked" } as never)
        .execute();
    });
    await expect(write).rejects.toBeInstanceOf(DatabaseBusyError);
    clearInterval(ticker);
    // The timer kept firing while the write waited: the wait was asynchronous.
    expect(ticks).toBeGreaterThan(5);
    await expect(write.catch((error) => isDatabaseUnavailable(error))).resolves.toBe(true);
    other.exec("ROLLBACK");
    expect(await count()).toBe(1);
  });

  it("stores a write once the lock is released within the bound, in a transaction or not", async () => {
    other.exec("BEGIN IMMEDIATE");
    setTimeout(() => other.exec("COMMIT"), 100);
    await database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("notes" as never)
        .values({ body: "in a transaction" } as never)
        .execute();
    });
    other.exec("BEGIN IMMEDIATE");
    setTimeout(() => other.exec("COMMIT"), 100);
    await database.db
      .insertInto("notes" as never)
      .values({ body: "alone" } as never)
      .execute();
    expect(await count()).toBe(3);
  });

  it("reports the real cause of a failed write, not a failed rollback", async () => {
    // A database that cannot grow: writes fail with SQLITE_FULL, as on a full disk.
    const pages = Number(
      (await sql<{ n: number }>`select page_count as n from pragma_page_count()`.execute(database.db)).rows[0]
        ?.n,
    );
    await sql.raw(`pragma max_page_count = ${pages}`).execute(database.db);
    const big = "x".repeat(200_000);
    const write = database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("notes" as never)
        .values({ body: big } as never)
        .execute();
    });
    await expect(write).rejects.toThrow(/full/i);
    await expect(write.catch((error) => isDatabaseUnavailable(error))).resolves.toBe(true);
    // The writer is free again: a small write goes through.
    await sql.raw("pragma max_page_count = 1073741823").execute(database.db);
    await database.db
      .insertInto("notes" as never)
      .values({ body: "after" } as never)
      .execute();
    expect(await count()).toBe(2);
  });
});

describe("SQLite checkpoints off the event loop", () => {
  it("never checkpoints inside a commit, and the worker thread keeps the log from growing without end", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sqlite-checkpoint-"));
    const file = join(dir, "test.sqlite");
    const database = openDatabase(file);
    try {
      await sql`create table notes (id integer primary key, body text not null)`.execute(database.db);
      // (The database's CamelCasePlugin renames the pragma's column: read its one value.)
      const pages = async () =>
        Number(Object.values((await sql`pragma wal_autocheckpoint`.execute(database.db)).rows[0] ?? {})[0]);
      expect(await pages()).toBe(0);
      // 3,000 commits of 1 KB write about 44 MB of log; the worker copies it back every half second
      // while the commits go on (RESTART past 4 MB), so the log file is reused and stays far smaller.
      const body = "x".repeat(1024);
      const started = Date.now();
      for (let i = 0; i < 3000 || Date.now() - started < 2000; i++) {
        await database.db
          .insertInto("notes" as never)
          .values({ body } as never)
          .execute();
        if (i % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(statSync(`${file}-wal`).size).toBeLessThan(24 * 1024 * 1024);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
