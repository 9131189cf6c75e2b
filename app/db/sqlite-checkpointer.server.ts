import { statSync } from "node:fs";
import { Worker } from "node:worker_threads";

// SQLite copies its write-ahead log back into the database file ("checkpoints") from whichever
// connection commits past 1,000 log pages, synchronously, inside that commit. With the dozen
// indexes a lead touches, a busy form crosses that line several times a second, and each copy
// (megabytes of scattered index pages) held the event loop for tens to hundreds of milliseconds:
// the back office's p95 went from 20 ms to 300 ms under 300 submissions a second (issue 10,
// docs/performance.md). The app's connections therefore never checkpoint (wal_autocheckpoint = 0);
// this worker thread does, on a connection of its own, off the event loop. SQLite also checkpoints
// when the last connection to a database closes, so a short-lived command leaves no log behind.

/** How often the worker copies the log back. */
export const CHECKPOINT_INTERVAL_MS = 500;
/**
 * A PASSIVE checkpoint never waits, so under a steady stream of commits it never catches up and the
 * log only grows. Once the log in use (as that PASSIVE reports it) is past this size, the worker
 * takes a RESTART checkpoint in the same tick: it waits (in its own
 * thread) for a gap between commits, copies everything and makes the next commit start the log
 * afresh. Writers meanwhile get SQLITE_BUSY and retry asynchronously (ADR 008), for milliseconds.
 */
export const RESTART_WAL_BYTES = 4 * 1024 * 1024;
/** Past this, the worker also truncates the log file, so a burst does not leave it large on disk. */
export const TRUNCATE_WAL_BYTES = 64 * 1024 * 1024;

/**
 * Reader threads keep snapshots open in the log (sqlite-readers.server.ts), and a RESTART
 * checkpoint waits for every one of them, blocking the app's writers meanwhile. So before one, new
 * reads are held back and the running ones finish (at most this long; they take milliseconds).
 */
export const READER_DRAIN_MS = 250;

/** What the checkpointer needs of the reader threads: a moment with none of them reading. */
export type ReaderBarrier = { pause(maxWaitMs: number): Promise<void>; resume(): void };

const WORKER_SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const { DatabaseSync } = require("node:sqlite");
// A short busy wait, in this thread only: a RESTART checkpoint waits for the writer's transaction.
const db = new DatabaseSync(workerData.path, { timeout: 200 });
db.exec("PRAGMA wal_autocheckpoint = 0");
const frameBytes = db.prepare("PRAGMA page_size").get().page_size + 24;
parentPort.on("message", (mode) => {
  if (mode === "stop") {
    db.close();
    parentPort.close();
    return;
  }
  let logBytes = 0;
  try {
    // log: the frames the log holds now; it falls to zero once a commit starts it afresh.
    logBytes = db.prepare("PRAGMA wal_checkpoint(" + mode + ")").get().log * frameBytes;
  } catch {
    // Busy (another process writes, a reader holds an old snapshot): next time.
  }
  parentPort.postMessage(logBytes);
});
`;

export type Checkpointer = { stop(): Promise<void> };

/**
 * Checkpoints `path`'s log from a worker thread every `intervalMs`; `stop()` ends it (the database
 * closes). The event loop only decides the mode from the log's size and, before a RESTART, holds
 * the reader threads back; the copying itself happens in the worker.
 */
export function startCheckpointer(
  path: string,
  {
    intervalMs = CHECKPOINT_INTERVAL_MS,
    restartBytes = RESTART_WAL_BYTES,
    truncateBytes = TRUNCATE_WAL_BYTES,
    readers,
  }: { intervalMs?: number; restartBytes?: number; truncateBytes?: number; readers?: ReaderBarrier } = {},
): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path } });
  // A forgotten stop() must not keep a process (a CLI, a test run) alive.
  worker.unref();
  let broken = false;
  // A failure in the worker leaves checkpoints to SQLite's close; it must not crash the server.
  worker.on("error", () => {
    broken = true;
  });
  let running: Promise<void> | undefined;

  /** Runs one checkpoint in the worker; resolves to the bytes of log in use (0 when unknown). */
  const checkpoint = (mode: string) =>
    new Promise<number>((resolve) => {
      const finish = (logBytes?: unknown) => {
        worker.off("message", finish);
        worker.off("exit", finish);
        resolve(typeof logBytes === "number" ? logBytes : 0);
      };
      worker.on("message", finish);
      worker.once("exit", finish);
      worker.postMessage(mode);
    });

  // Decided on the log in use, as the PASSIVE checkpoint reports it, and not on the file's size: a
  // RESTART starts the log afresh inside the same file, which keeps its size until a TRUNCATE, so
  // the size would call for a RESTART (holding the readers back) at every tick once past the limit.
  const tick = async () => {
    const truncate = walFileSize(path) > truncateBytes;
    if (!truncate && (await checkpoint("PASSIVE")) <= restartBytes) return;
    const mode = truncate ? "TRUNCATE" : "RESTART";
    if (!readers) {
      await checkpoint(mode);
      return;
    }
    await readers.pause(READER_DRAIN_MS);
    try {
      await checkpoint(mode);
    } finally {
      readers.resume();
    }
  };

  const timer = setInterval(() => {
    if (running || broken) return;
    running = tick().finally(() => {
      running = undefined;
    });
  }, intervalMs);
  timer.unref();

  return {
    async stop() {
      clearInterval(timer);
      await running;
      // Keep the process alive until the worker has closed its connection (a command ending with
      // `await database.close()` would otherwise exit with that await unsettled).
      worker.ref();
      const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
      worker.postMessage("stop");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      await worker.terminate();
    },
  };
}

function walFileSize(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}
