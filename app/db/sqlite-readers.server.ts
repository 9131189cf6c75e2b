import { Worker } from "node:worker_threads";
import { DatabaseBusyError } from "./unavailable.server.ts";

// node:sqlite answers synchronously: a read that scans (the back office's total of 100,000 leads,
// its 30-day summary, a text search) holds the event loop for its whole duration, and every other
// request waits behind it — under a stream of submissions the back office's p95 was 5-10 times its
// median (issue 10, docs/performance.md). Reads outside a transaction therefore run in worker
// threads, each with a connection of its own; WAL lets them read while the app's writer writes, and a
// read sees every transaction committed before it was sent. Writes and reads inside a transaction
// stay on the event loop's writer connection (ADR 008, second addendum).

/** Two readers: one long scan does not queue every other read behind it, and this fits two cores. */
export const SQLITE_READER_THREADS = 2;

const WORKER_SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const { DatabaseSync } = require("node:sqlite");
// timeout 0: a reader never sleeps for a lock (WAL readers meet one only during crash recovery);
// SQLITE_BUSY goes back to the caller, which retries asynchronously.
const db = new DatabaseSync(workerData.path, { timeout: 0 });
db.exec("PRAGMA wal_autocheckpoint = 0");
// The same folding as the app's connections (sqlite-adapter.server.ts, migration 005 on PostgreSQL).
db.function("unicode_lower", { deterministic: true }, (value) =>
  typeof value === "string" ? value.toLowerCase() : value,
);
const statements = new Map();
parentPort.on("message", (message) => {
  if (message === "close") {
    statements.clear();
    db.close();
    parentPort.close();
    return;
  }
  const { id, sql, parameters } = message;
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      // Bounded: dynamic SQL (a search with many terms) must not grow the cache forever.
      if (statements.size < 500) statements.set(sql, statement);
    }
    parentPort.postMessage({ id, rows: statement.all(...parameters) });
  } catch (error) {
    parentPort.postMessage({
      id,
      error: { message: String(error && error.message), code: error && error.code, errcode: error && error.errcode },
    });
  }
});
`;

type Pending = { resolve(rows: unknown[]): void; reject(error: unknown): void; timer: NodeJS.Timeout };

type Reader = { worker: Worker; pending: Map<number, Pending> };

/**
 * A read is given at least this long before it answers 503: unlike a write, it waits for no lock,
 * only for its thread, so the bound is there for a stuck thread, not for another process's lock.
 */
export const MIN_READ_WAIT_MS = 5000;

export type SqliteReaders = {
  /** Resolves once the first reader thread has its connection open. */
  ready: Promise<void>;
  /**
   * Holds new reads back until resume(), and resolves once no read is running (or after
   * `maxWaitMs`): a RESTART checkpoint then finds no reader in the log (sqlite-checkpointer).
   */
  pause(maxWaitMs: number): Promise<void>;
  resume(): void;
  /** Runs one SELECT on the least busy reader thread; rejects with the SQLite error it met. */
  all(sql: string, parameters: readonly unknown[]): Promise<unknown[]>;
  close(): Promise<void>;
};

/**
 * Reader threads for `path`: one at once, a second when a read finds the first busy. A read still
 * unanswered after `waitMs` (at least MIN_READ_WAIT_MS)
 * (a thread stuck on a pathological scan) answers DatabaseBusyError — 503, like a write that waited
 * too long — and a thread that dies is replaced, its reads failed.
 */
export function startSqliteReaders(
  path: string,
  { threads = SQLITE_READER_THREADS, waitMs = MIN_READ_WAIT_MS } = {},
): SqliteReaders {
  const readWaitMs = Math.max(waitMs, MIN_READ_WAIT_MS);
  const readers: Array<Reader | undefined> = new Array(threads).fill(undefined);
  let nextId = 0;
  let closed = false;
  let paused = false;
  /** Reads that arrived while paused, sent on resume(). */
  let held: Array<() => void> = [];
  let drained: (() => void) | undefined;

  const spawn = (slot: number): Reader => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path } });
    // Idle readers must not keep a process (a CLI, a test run) alive; busy ones do (ref below).
    worker.unref();
    const reader: Reader = { worker, pending: new Map() };
    worker.on("message", (message: { id: number; rows?: unknown[]; error?: SqliteErrorShape }) => {
      const request = reader.pending.get(message.id);
      if (!request) return;
      settle(reader, message.id);
      if (message.error) request.reject(toError(message.error));
      else request.resolve(message.rows ?? []);
    });
    const fail = (error: unknown) => {
      if (readers[slot] === reader) readers[slot] = undefined;
      for (const [id, request] of reader.pending) {
        settle(reader, id);
        request.reject(error instanceof Error ? error : new Error("SQLite reader thread stopped"));
      }
    };
    worker.on("error", fail);
    worker.on("exit", () => fail(new Error("SQLite reader thread stopped")));
    readers[slot] = reader;
    return reader;
  };

  const settle = (reader: Reader, id: number) => {
    const request = reader.pending.get(id);
    if (!request) return;
    clearTimeout(request.timer);
    reader.pending.delete(id);
    if (reader.pending.size === 0) reader.worker.unref();
    if (drained && readers.every((each) => !each || each.pending.size === 0)) drained();
  };

  /** An idle reader, else a new thread in a free slot, else the one with the shortest queue. */
  const leastBusy = (): Reader => {
    const running = readers.filter((reader): reader is Reader => reader !== undefined);
    const idle = running.find((reader) => reader.pending.size === 0);
    if (idle) return idle;
    const free = readers.indexOf(undefined);
    if (free !== -1) return spawn(free);
    return running.reduce((best, reader) => (reader.pending.size < best.pending.size ? reader : best));
  };

  function resume(): void {
    paused = false;
    const waiting = held;
    held = [];
    for (const send of waiting) send();
  }

  const first = spawn(0);
  const ready = new Promise<void>((resolve) => {
    // A thread that fails to start is reported by the first read; start-up must not hang on it.
    first.worker.once("online", () => resolve());
    first.worker.once("exit", () => resolve());
  });

  return {
    ready,
    all(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
      if (closed) return Promise.reject(new Error("The database is closed"));
      return new Promise<unknown[]>((resolve, reject) => {
        const deadline = Date.now() + readWaitMs;
        const send = () => {
          if (closed) return reject(new Error("The database is closed"));
          const reader = leastBusy();
          const id = nextId++;
          const timer = setTimeout(
            () => {
              settle(reader, id);
              reject(new DatabaseBusyError());
            },
            Math.max(0, deadline - Date.now()),
          );
          reader.pending.set(id, { resolve, reject, timer });
          reader.worker.ref();
          reader.worker.postMessage({ id, sql, parameters });
        };
        if (paused) held.push(send);
        else send();
      });
    },
    async pause(maxWaitMs: number): Promise<void> {
      paused = true;
      if (readers.every((reader) => !reader || reader.pending.size === 0)) return;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        drained = resolve;
        timer = setTimeout(resolve, maxWaitMs);
      });
      clearTimeout(timer);
      drained = undefined;
    },
    resume,
    async close(): Promise<void> {
      closed = true;
      resume();
      await Promise.all(
        readers.map(async (reader) => {
          if (!reader) return;
          reader.worker.ref();
          const exited = new Promise<void>((resolve) => reader.worker.once("exit", () => resolve()));
          reader.worker.postMessage("close");
          await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
          await reader.worker.terminate();
        }),
      );
    },
  };
}

type SqliteErrorShape = { message: string; code?: string; errcode?: number };

/** The worker's error, rebuilt with the fields the dialect's retry and 503 mapping look at. */
function toError(shape: SqliteErrorShape): Error {
  return Object.assign(new Error(shape.message), { code: shape.code, errcode: shape.errcode });
}
