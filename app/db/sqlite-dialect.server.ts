import { setTimeout as sleep } from "node:timers/promises";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { DatabaseSync, nodeSqliteDatabase, toSqliteValue } from "./sqlite-adapter.server.ts";
import { type Checkpointer, startCheckpointer } from "./sqlite-checkpointer.server.ts";
import { type SqliteReaders, startSqliteReaders } from "./sqlite-readers.server.ts";
import { DatabaseBusyError } from "./unavailable.server.ts";

/**
 * SQLite without waiting on the event loop (ADR 008).
 *
 * node:sqlite is synchronous: a busy timeout makes SQLite sleep inside the call, which freezes the
 * whole process while another process (an operator command, a backup, the sqlite3 shell) holds the
 * write lock. And Kysely's own SQLite driver runs every query through one connection behind one
 * mutex, so a write waiting for the lock would still hold up every read queued behind it. So:
 * - connections with busy timeout 0: reads outside a transaction go to reader threads
 *   (sqlite-readers.server.ts), which WAL lets run while this or another process writes, and which
 *   keep a long scan off the event loop; everything else goes to the writer;
 * - a transaction takes the write lock up front (`BEGIN IMMEDIATE`); when another process holds it,
 *   the attempt is retried with an asynchronous backoff, the writer free for others in between, until
 *   `writeWaitMs`, then DatabaseBusyError (answered 503). Once BEGIN IMMEDIATE succeeds, WAL mode
 *   means no statement of the transaction meets SQLITE_BUSY;
 * - a write outside a transaction is retried the same way.
 */
export type SqliteDialectOptions = {
  path: string;
  synchronous: "NORMAL" | "FULL";
  /** How long a write waits for a lock another process holds before giving up with 503. */
  writeWaitMs: number;
};

const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;

/** SQLITE_BUSY or SQLITE_LOCKED, extended codes included (BUSY_SNAPSHOT, BUSY_RECOVERY...). */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === "number" && ((code & 0xff) === SQLITE_BUSY || (code & 0xff) === SQLITE_LOCKED);
}

export function createSqliteDialect(options: SqliteDialectOptions): Dialect {
  return {
    createAdapter: () => new MultiConnectionSqliteAdapter(),
    createDriver: () => new SplitSqliteDriver(options),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

/** Tells Kysely not to serialise every query through one mutex: the driver routes them itself. */
class MultiConnectionSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

function openHandle(path: string, synchronous: string): DatabaseSync {
  // timeout 0: never sleep on the event loop waiting for another process's lock.
  const handle = new DatabaseSync(path, { timeout: 0 });
  handle.exec("PRAGMA journal_mode = WAL");
  handle.exec(`PRAGMA synchronous = ${synchronous}`);
  handle.exec("PRAGMA foreign_keys = ON");
  // Checkpoints run in a worker thread (sqlite-checkpointer.server.ts), never inside a commit here.
  if (path !== ":memory:") handle.exec("PRAGMA wal_autocheckpoint = 0");
  return handle;
}

/** A FIFO lock for this process's writer connection. */
class WriterLock {
  #held = false;
  #waiting: Array<() => void> = [];

  async acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}

class SplitSqliteDriver implements Driver {
  readonly #options: SqliteDialectOptions;
  #writerHandle!: DatabaseSync;
  #writer!: ReturnType<typeof nodeSqliteDatabase>;
  /** Reader threads; none for an in-memory database, which exists once per connection. */
  #readers: SqliteReaders | undefined;
  #checkpointer: Checkpointer | undefined;
  readonly #lock = new WriterLock();

  constructor(options: SqliteDialectOptions) {
    this.#options = options;
  }

  async init(): Promise<void> {
    const { path, synchronous } = this.#options;
    this.#writerHandle = openHandle(path, synchronous);
    this.#writer = nodeSqliteDatabase(this.#writerHandle);
    if (path === ":memory:") return;
    this.#readers = startSqliteReaders(path, { waitMs: this.#options.writeWaitMs });
    this.#checkpointer = startCheckpointer(path, { readers: this.#readers });
    await this.#readers.ready;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).finish("COMMIT");
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).finish("ROLLBACK");
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as RoutedConnection).release();
  }

  async destroy(): Promise<void> {
    await this.#checkpointer?.stop();
    await this.#readers?.close();
    this.#writer.close();
  }

  /** Runs `attempt` holding this process's writer, retrying while another process holds SQLite's lock. */
  async withWriter<T>(attempt: () => T, keepLock = false): Promise<T> {
    const deadline = Date.now() + this.#options.writeWaitMs;
    let pause = 2;
    for (;;) {
      if (!(await this.#acquireBy(deadline))) throw new DatabaseBusyError();
      try {
        const result = attempt();
        if (!keepLock) this.#lock.release();
        return result;
      } catch (error) {
        this.#lock.release();
        if (!isSqliteBusy(error)) throw error;
      }
      if (Date.now() + pause > deadline) throw new DatabaseBusyError();
      await sleep(pause);
      pause = Math.min(pause * 2, 100);
    }
  }

  releaseWriter(): void {
    this.#lock.release();
  }

  async #acquireBy(deadline: number): Promise<boolean> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return false;
    let timer: NodeJS.Timeout | undefined;
    const acquired = this.#lock.acquire().then(() => true);
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), remaining);
    });
    const won = await Promise.race([acquired, timedOut]);
    clearTimeout(timer);
    // Too late: hand the lock on as soon as it arrives.
    if (!won) void acquired.then(() => this.#lock.release());
    return won;
  }

  get writerHandle(): DatabaseSync {
    return this.#writerHandle;
  }

  /** Runs a statement on the writer connection, on the event loop. */
  run(query: CompiledQuery): QueryResult<unknown> {
    const statement = this.#writer.prepare(query.sql);
    const parameters = query.parameters;
    if (statement.reader) return { rows: statement.all(parameters) as unknown[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return {
      insertId: lastInsertRowid != null ? BigInt(lastInsertRowid) : undefined,
      numAffectedRows: changes != null ? BigInt(changes) : undefined,
      rows: [],
    };
  }

  /** Runs a read outside a transaction on a reader thread (the writer for an in-memory database). */
  async read(query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (!this.#readers) return this.run(query);
    return { rows: await this.#readers.all(query.sql, query.parameters.map(toSqliteValue)) };
  }
}

function onlyReads(query: CompiledQuery): boolean {
  if (SelectQueryNode.is(query.query)) return true;
  // Raw SQL (sql`...`): a plain SELECT reads; anything else is treated as a write.
  return query.query?.kind === "RawNode" && /^\s*select\b/i.test(query.sql);
}

/** One Kysely "connection": a route to the readers or the writer, holding the writer during a transaction. */
class RoutedConnection implements DatabaseConnection {
  readonly #driver: SplitSqliteDriver;
  #inTransaction = false;

  constructor(driver: SplitSqliteDriver) {
    this.#driver = driver;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#inTransaction) return this.#driver.run(query) as QueryResult<R>;
    if (onlyReads(query)) return this.#readWithRetry(query) as Promise<QueryResult<R>>;
    return this.#driver.withWriter(() => this.#driver.run(query)) as Promise<QueryResult<R>>;
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // Nothing in the app streams; a whole result keeps the reader free between awaits.
    yield (await this.executeQuery(query)) as QueryResult<R>;
  }

  async begin(): Promise<void> {
    await this.#driver.withWriter(() => this.#driver.writerHandle.exec("BEGIN IMMEDIATE"), true);
    this.#inTransaction = true;
  }

  async finish(command: "COMMIT" | "ROLLBACK"): Promise<void> {
    if (!this.#inTransaction) return;
    this.#inTransaction = false;
    try {
      const handle = this.#driver.writerHandle;
      // SQLite rolls back by itself after some failures (disk full, I/O error): a ROLLBACK then would
      // fail with "no transaction is active" and hide the real cause the caller is about to see.
      if (command === "ROLLBACK" && !handle.isTransaction) return;
      handle.exec(command);
    } catch (error) {
      if (command === "COMMIT") {
        const handle = this.#driver.writerHandle;
        if (handle.isTransaction) handle.exec("ROLLBACK");
      }
      throw error;
    } finally {
      this.#driver.releaseWriter();
    }
  }

  release(): void {
    if (!this.#inTransaction) return;
    this.#inTransaction = false;
    const handle = this.#driver.writerHandle;
    if (handle.isTransaction) handle.exec("ROLLBACK");
    this.#driver.releaseWriter();
  }

  async #readWithRetry(query: CompiledQuery): Promise<QueryResult<unknown>> {
    // WAL readers are not blocked by writers; SQLITE_BUSY here is rare (recovery after a crash),
    // so a few short asynchronous retries suffice.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#driver.read(query);
      } catch (error) {
        if (!isSqliteBusy(error) || attempt >= 20) throw error;
        await sleep(5 * (attempt + 1));
      }
    }
  }
}

export { CompiledQuery };
