import { readdir, readFile } from "node:fs/promises";
import { parentPort, workerData } from "node:worker_threads";
import type { LabProxyStats } from "./lab-types.ts";
import { startTrafficGuard } from "./traffic-guard.server.ts";

// The lab child's second thread: the traffic guard and the memory watch, on an event loop of their
// own. On the child's main thread Lighthouse handles the browser's DevTools events during the load;
// a proxy sharing that loop would answer late, and Lighthouse's simulated throttling reads those
// delays as the site's server response time (the scores came out lower than `npm run lighthouse`'s).

export type GuardWorkerData = {
  /** true, false, or the private addresses allowed. Metadata is refused whatever this says. */
  allowPrivate: boolean | string[];
  /** The process group (the lab child's pid) whose memory is watched. */
  group: number;
  memoryMb: number;
};

export type GuardWorkerMessage =
  | { type: "ready"; proxyUrl: string }
  | { type: "memory"; mb: number }
  | {
      type: "blocked";
      blocked: { url: string; reason: string }[];
      blockedCount: number;
      proxy: LabProxyStats;
    };

/**
 * Memory (MB) of every process in the group (the lab child, Chromium and its children), as the sum
 * of their proportional set sizes: Chromium's processes share most of their pages (the binary,
 * shared memory), which a sum of RSS would count once per process (~1.5 GB for one home page).
 */
async function groupMemoryMb(group: number): Promise<number> {
  let kb = 0;
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name, which is in parentheses and may hold spaces.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== group) continue;
      const rollup = await readFile(`/proc/${entry}/smaps_rollup`, "utf8");
      kb += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // The process ended while we looked.
    }
  }
  return kb / 1024;
}

const data = workerData as GuardWorkerData;
const port = parentPort;
if (!port) throw new Error("traffic-guard-worker.server.ts runs as a worker thread only");
const allowed = data.allowPrivate;
const guard = await startTrafficGuard({
  allowPrivate: Array.isArray(allowed) ? (address) => allowed.includes(address) : allowed,
});
let watching = true;
void (async () => {
  while (watching) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const mb = await groupMemoryMb(data.group);
    if (mb > data.memoryMb)
      port.postMessage({ type: "memory", mb: Math.round(mb) } satisfies GuardWorkerMessage);
  }
})();
port.on("message", async (message: { type: "finish" }) => {
  if (message.type !== "finish") return;
  watching = false;
  port.postMessage({
    type: "blocked",
    blocked: guard.blocked,
    blockedCount: guard.blockedCount,
    proxy: guard.stats,
  } satisfies GuardWorkerMessage);
  await guard.close();
  port.close();
});
port.postMessage({ type: "ready", proxyUrl: guard.proxyUrl } satisfies GuardWorkerMessage);
