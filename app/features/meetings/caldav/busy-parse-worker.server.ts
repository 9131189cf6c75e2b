import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { createWorkSlots } from "#app/lib/work-slots.ts";
import { type BusyParseResult, busyParseKit } from "./busy-parse.ts";

// A calendar's answer is untrusted data of up to a few megabytes (MAX_CALENDAR_ANSWER_BYTES), and
// expanding its recurrences can take long (a rule that repeats every minute for years): parsing it on
// the event loop could hold every request up. Each answer is parsed in a worker thread of its own with
// a small heap and a time budget, one at a time, a few waiting; past the budget the thread is stopped
// and the refresh fails (the cache stays, the error is recorded for staff). A refresh is rare (once
// per host every few minutes, and before a booking), so a thread per answer costs little and holds
// no memory between refreshes.

/** One answer's time budget; a year of a busy calendar parses in well under a second. */
export const PARSE_BUDGET_MS = 4_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const ICAL = require(workerData.icalPath);
const busyParseKit = ${busyParseKit.toString()};
const kit = busyParseKit(ICAL.default || ICAL);
parentPort.once("message", ({ xml, from, to }) => {
  parentPort.postMessage(kit.busyFromAnswer(xml, from, to));
});
`;

let icalPath: string | undefined;
const slots = createWorkSlots({ running: 1, waiting: 8 });

/** The busy times in a calendar-query answer between `from` and `to`, parsed off the event loop. */
export async function parseBusyAnswer(
  xml: string,
  from: number,
  to: number,
  budgetMs = PARSE_BUDGET_MS,
): Promise<BusyParseResult> {
  const slot = slots.reserve();
  if (!slot) return { ok: false, error: "Other calendars are being read; try again in a moment." };
  try {
    await slot.ready;
    icalPath ??= createRequire(import.meta.url).resolve("ical.js");
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { icalPath },
      resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    worker.unref();
    return await new Promise<BusyParseResult>((resolve) => {
      const timer = setTimeout(() => {
        resolve({ ok: false, error: `Reading the calendar took longer than ${budgetMs / 1000} s.` });
        void worker.terminate();
      }, budgetMs);
      worker.once("message", (result: BusyParseResult) => {
        clearTimeout(timer);
        resolve(result);
        void worker.terminate();
      });
      worker.once("error", (error) => {
        clearTimeout(timer);
        resolve({ ok: false, error: `Reading the calendar failed: ${error.message.split("\n")[0]}` });
      });
      worker.once("exit", () => {
        clearTimeout(timer);
        resolve({ ok: false, error: "Reading the calendar stopped before it finished." });
      });
      worker.postMessage({ xml, from, to });
    });
  } finally {
    slot.release();
  }
}
