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
 * log only grows. Past this size the worker takes a RESTART checkpoint instead: it waits (in its own
 * thread) for a gap between commits, copies everything and makes the next commit start the log
 * afresh. Writers meanwhile get SQLITE_BUSY and retry asynchronously (ADR 008), for milliseconds.
 */
export const RESTART_WAL_BYTES = 4 * 1024 * 1024;
/** Past this, the worker also truncates the log file, so a burst does not leave it large on disk. */
export const TRUNCATE_WAL_BYTES = 64 * 1024 * 1024;

const WORKER_SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const { DatabaseSync } = require("node:sqlite");
const { statSync } = require("node:fs");
const { path, intervalMs, restartBytes, truncateBytes } = workerData;
// A short busy wait, in this thread only: a RESTART checkpoint waits for a gap between commits.
const db = new DatabaseSync(path, { timeout: 200 });
db.exec("PRAGMA wal_autocheckpoint = 0");
const walSize = () => { try { return statSync(path + "-wal").size; } catch { return 0; } };
const timer = setInterval(() => {
  try {
    const size = walSize();
    const mode = size > truncateBytes ? "TRUNCATE" : size > restartBytes ? "RESTART" : "PASSIVE";
    db.exec("PRAGMA wal_checkpoint(" + mode + ")");
  } catch {
    // Busy (another process writes, a reader holds an old snapshot): next time.
  }
}, intervalMs);
parentPort.on("message", () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

export type Checkpointer = { stop(): Promise<void> };

/** Starts checkpointing `path`'s log from a worker thread; `stop()` ends it (the database closes). */
export function startCheckpointer(
  path: string,
  {
    intervalMs = CHECKPOINT_INTERVAL_MS,
    restartBytes = RESTART_WAL_BYTES,
    truncateBytes = TRUNCATE_WAL_BYTES,
  } = {},
): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { path, intervalMs, restartBytes, truncateBytes },
  });
  // A forgotten stop() must not keep a process (a CLI, a test run) alive.
  worker.unref();
  // A failure in the worker leaves checkpoints to SQLite's close; it must not crash the server.
  worker.on("error", () => {});
  return {
    async stop() {
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
