import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "./database.server.ts";
import { startSqliteReaders } from "./sqlite-readers.server.ts";
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

describe("SQLite reads in reader threads", () => {
  let dir: string;
  let database: AppDatabase;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "sqlite-readers-"));
    database = openDatabase(join(dir, "test.sqlite"));
    await sql`create table notes (id integer primary key, body text not null, done integer not null)`.execute(
      database.db,
    );
  });

  afterEach(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps the event loop free while a long read scans", async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    // A scan of two million generated rows: hundreds of milliseconds even on a fast machine.
    const result = await sql<{ n: number }>`select (
      with recursive counter(x) as (select 1 union all select x + 1 from counter where x < 2000000)
      select count(*) from counter) as n`.execute(database.db);
    clearInterval(ticker);
    expect(Number(result.rows[0]?.n)).toBe(2_000_000);
    // On the event loop the timer could not have fired once during the scan.
    expect(ticks).toBeGreaterThan(3);
  });

  it("sees every write committed before the read was sent", async () => {
    for (let i = 1; i <= 200; i++) {
      await database.db
        .insertInto("notes" as never)
        .values({ body: `note ${i}`, done: i % 2 === 0 } as never)
        .execute();
      const rows = await database.db
        .selectFrom("notes" as never)
        .select(sql<number>`count(*)`.as("n"))
        .executeTakeFirstOrThrow();
      expect(Number((rows as { n: number }).n)).toBe(i);
    }
    // Booleans are bound as 0/1, as on the writer; unicode_lower folds accented capitals there too.
    const done = await sql<{ n: number }>`select count(*) as n from notes where done = ${true}`.execute(
      database.db,
    );
    expect(Number(done.rows[0]?.n)).toBe(100);
    const folded = await sql<{ v: string }>`select unicode_lower(${"ÉLODIE"}) as v`.execute(database.db);
    expect(folded.rows[0]?.v).toBe("élodie");
  });

  it("answers many concurrent reads, and rejects a bad one with SQLite's own message", async () => {
    await database.db
      .insertInto("notes" as never)
      .values({ body: "one", done: 0 } as never)
      .execute();
    const reads = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        sql<{ body: string; i: number }>`select body, ${i} as i from notes`.execute(database.db),
      ),
    );
    expect(reads.map((read) => read.rows[0]?.i)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    await expect(sql`select * from no_such_table`.execute(database.db)).rejects.toThrow(/no such table/);
    // The reader is still there after an error.
    expect((await sql<{ body: string }>`select body from notes`.execute(database.db)).rows).toEqual([
      { body: "one" },
    ]);
  });
});

describe("the reader threads' barrier before a RESTART checkpoint", () => {
  it("lets running reads finish, holds new ones back, and sends them on resume", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sqlite-barrier-"));
    const file = join(dir, "test.sqlite");
    const setup = new DatabaseSync(file);
    setup.exec("PRAGMA journal_mode = WAL; create table notes (body text); insert into notes values ('one')");
    const readers = startSqliteReaders(file);
    try {
      await readers.ready;
      const events: string[] = [];
      const scan = readers
        .all(
          "select (with recursive c(x) as (select 1 union all select x + 1 from c where x < 500000) select count(*) from c) as n",
          [],
        )
        .then(() => events.push("running read done"));
      const paused = readers.pause(10_000).then(() => events.push("paused"));
      const held = readers.all("select body from notes", []).then((rows) => {
        events.push("held read done");
        return rows;
      });
      await paused;
      // The barrier opened only once the running read had finished, and the new read waits.
      expect(events).toEqual(["running read done", "paused"]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(events).toEqual(["running read done", "paused"]);
      readers.resume();
      expect(await held).toEqual([{ body: "one" }]);
      await scan;
    } finally {
      await readers.close();
      setup.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
