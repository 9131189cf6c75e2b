import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { backup, DatabaseSync } from "node:sqlite";

// `npm run db:backup` and `npm run db:restore` for the embedded SQLite database (issue 13). The
// server may run during a backup: SQLite's online backup copies a consistent snapshot while writers
// go on. A restore replaces the file, so it refuses while any process holds the database.

export type TableCount = { name: string; rows: number };
export type Inspection = { bytes: number; integrity: string; tables: TableCount[]; migrations: number };

export class BackupError extends Error {}

/** Checks a database file as a backup must be: SQLite's integrity check, and every table's rows. */
export function inspectSqlite(path: string): Inspection {
  if (!existsSync(path)) throw new BackupError(`${path} does not exist.`);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { readOnly: true });
  } catch (error) {
    throw new BackupError(`${path} cannot be opened as SQLite: ${(error as Error).message}`);
  }
  try {
    const rows = db.prepare("PRAGMA integrity_check").all() as { integrity_check: string }[];
    const integrity = rows.map((row) => row.integrity_check).join("; ");
    const names = db
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name",
      )
      .all() as { name: string }[];
    const tables = names.map(({ name }) => ({
      name,
      // The name comes from the file's own catalogue; quoted as an identifier all the same.
      rows: Number(
        (db.prepare(`select count(*) as n from "${name.replaceAll('"', '""')}"`).get() as { n: number }).n,
      ),
    }));
    const migrations = tables.find((table) => table.name === "kysely_migration")?.rows ?? 0;
    return { bytes: statSync(path).size, integrity, tables, migrations };
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${path} is not a readable SQLite database: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}

function assertUsable(path: string, inspection: Inspection): void {
  if (inspection.integrity !== "ok")
    throw new BackupError(`${path} fails SQLite's integrity check: ${inspection.integrity}`);
  if (inspection.migrations === 0)
    throw new BackupError(`${path} is not a Clausebridge database (no migrations recorded).`);
}

/** Writes `path` to disk for good: its data, then its directory entry's rename. */
function flushToDisk(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Copies `source` into the new file `target`, consistently even while the server writes, then
 * checks the copy. The copy is built beside the target and renamed only once it passed, so a failed
 * or interrupted backup never leaves a file that looks like a backup.
 */
export async function backupSqlite(source: string, target: string): Promise<Inspection & { ms: number }> {
  if (!existsSync(source)) throw new BackupError(`There is no database at ${source}.`);
  if (existsSync(target)) throw new BackupError(`${target} already exists: choose a new file name.`);
  const partial = `${target}.partial`;
  const started = performance.now();
  const db = new DatabaseSync(source, { readOnly: true, timeout: 5000 });
  try {
    // All pages in one step (node:sqlite takes no -1): one read transaction, so one snapshot however
    // busy the writers are (in steps, SQLite would start over after every commit by another process).
    await backup(db, partial, { rate: 2 ** 31 - 1 });
    // One self-contained file: the copy inherits the write-ahead log mode, which would give it -wal
    // and -shm companions wherever it is opened. The server turns the log back on when it starts.
    const copy = new DatabaseSync(partial);
    copy.exec("PRAGMA journal_mode = DELETE");
    copy.close();
    flushToDisk(partial);
    const inspection = inspectSqlite(partial);
    assertUsable(partial, inspection);
    renameSync(partial, target);
    return { ...inspection, ms: performance.now() - started };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
}

export class DatabaseInUseError extends BackupError {}

/**
 * Replaces the database at `target` with the backup `file`, after checking the backup. Refuses
 * while any other process (a running server, a command) has the database open: it takes SQLite's
 * exclusive lock first and holds it until the new file is in place.
 */
export function restoreSqlite(file: string, target: string): Inspection {
  assertUsable(file, inspectSqlite(file));
  const incoming = `${target}.restoring`;
  let guard: DatabaseSync | undefined;
  if (existsSync(target)) {
    guard = new DatabaseSync(target, { timeout: 0 });
    try {
      // Exclusive locking mode: refused while another connection has the file open, even idle.
      guard.exec("PRAGMA locking_mode = EXCLUSIVE");
      guard.exec("BEGIN EXCLUSIVE");
      guard.exec("COMMIT");
      // Copy what the log holds into the file being replaced, and empty the log.
      guard.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch {
      guard.close();
      throw new DatabaseInUseError(
        `${target} is in use by another process (a running server?): stop it, then restore again.`,
      );
    }
  }
  try {
    copyFileSync(file, incoming);
    flushToDisk(incoming);
    renameSync(incoming, target);
  } catch (error) {
    rmSync(incoming, { force: true });
    throw error;
  } finally {
    // Closing the old file's connection removes its (empty) log; a leftover index of it must go too.
    guard?.close();
    rmSync(`${target}-wal`, { force: true });
    rmSync(`${target}-shm`, { force: true });
  }
  const restored = inspectSqlite(target);
  assertUsable(target, restored);
  return restored;
}

/** The figures a person checks after a backup or a restore. */
export function describeInspection(path: string, inspection: Inspection): string {
  const width = Math.max(...inspection.tables.map((table) => table.name.length), 5);
  const lines = inspection.tables.map(
    (table) => `  ${table.name.padEnd(width)}  ${table.rows.toLocaleString("en-GB").padStart(9)}`,
  );
  return [
    `${path}: ${(inspection.bytes / 1024 / 1024).toFixed(1)} MB, integrity ${inspection.integrity}, ${inspection.migrations} migrations`,
    `  ${"table".padEnd(width)}  ${"rows".padStart(9)}`,
    ...lines,
  ].join("\n");
}
