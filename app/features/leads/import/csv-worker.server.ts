import { Worker } from "node:worker_threads";
import { type CsvLimits, type CsvParseResult, parseCsv } from "./csv-parse.ts";

// Reading an uploaded CSV is hostile work (issue 23): a 5 MB file of quotes and delimiters, a
// pathological line, bytes that are not text. It runs in a worker thread with its own small heap and
// a deadline, so no upload can hold the event loop or the process's memory; at most IMPORT_PARSERS
// run at once and a few wait, the rest are told to try again (the audits' and the hashing queue's rule).

/** The largest CSV accepted, in bytes (the request body limit of the import routes is a little more). */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_LIMITS: CsvLimits = { maxRows: 10_000, maxColumns: 50, maxCellChars: 10_000 };
/** A parse still running after this is stopped (a 5 MB file takes well under a second). */
const PARSE_DEADLINE_MS = 15_000;
const IMPORT_PARSERS = 1;
const MAX_WAITING = 4;

const WORKER_SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const parseCsv = ${parseCsv.toString()};
(() => {
  const { bytes, limits } = workerData;
  const view = new Uint8Array(bytes);
  if ((view[0] === 0xff && view[1] === 0xfe) || (view[0] === 0xfe && view[1] === 0xff)) {
    parentPort.postMessage({ ok: false, message: "The file is UTF-16 text. Save it as CSV UTF-8 (Comma delimited) and upload that." });
    return;
  }
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(view);
  } catch {
    parentPort.postMessage({ ok: false, message: "The file is not UTF-8 text. In your spreadsheet, save it as CSV UTF-8 (Comma delimited) and upload that." });
    return;
  }
  const result = parseCsv(text, limits);
  parentPort.postMessage(result.ok && workerData.withText ? { ...result, text } : result);
})();
`;

export class ImportBusyError extends Error {
  constructor() {
    super("Another import is being read. Please try again in a few seconds.");
  }
}

let running = 0;
const waiting: (() => void)[] = [];

/**
 * Decodes (UTF-8, strict) and parses `bytes` in a worker thread. With `withText`, the decoded text
 * comes back too (kept in the import's draft for the mapping step). Throws ImportBusyError when too
 * many parses are already waiting.
 */
export async function parseCsvOffThread(
  bytes: Uint8Array,
  { withText = false, limits = IMPORT_LIMITS } = {},
): Promise<CsvParseResult & { text?: string }> {
  if (bytes.byteLength > IMPORT_MAX_BYTES)
    return {
      ok: false,
      message: `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB. Split it into several files.`,
    };
  if (running >= IMPORT_PARSERS) {
    if (waiting.length >= MAX_WAITING) throw new ImportBusyError();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running++;
  try {
    return await runWorker(bytes, withText, limits);
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function runWorker(bytes: Uint8Array, withText: boolean, limits: CsvLimits) {
  // A copy the worker owns: the request's buffer may be a slice of a shared pool.
  const owned = new Uint8Array(bytes).buffer;
  return new Promise<CsvParseResult & { text?: string }>((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { bytes: owned, limits, withText },
      transferList: [owned],
      // A heap big enough for 5 MB of text and its cells, and no bigger.
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          resolve({ ok: false, message: "The file took too long to read. Split it into smaller files." }),
        ),
      PARSE_DEADLINE_MS,
    );
    worker.once("message", (message: CsvParseResult & { text?: string }) => finish(() => resolve(message)));
    worker.once("error", (error: Error & { code?: string }) =>
      finish(() =>
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? resolve({ ok: false, message: "The file is too complex to read. Split it into smaller files." })
          : reject(error),
      ),
    );
    worker.once("exit", () => finish(() => reject(new Error("The CSV reader stopped unexpectedly."))));
  });
}
