import { readdir, readFile } from "node:fs/promises";
import { resolveCheckedTarget, SafeFetchError } from "#app/lib/safe-fetch/safe-connect.server.ts";
import { AUDIT_TARGET_TEXT, urlHost } from "../target-policy.server.ts";
import { type LaunchedChromium, launchChromium } from "./lab-browser.server.ts";
import { labChromiumFlags } from "./lab-chromium.server.ts";
import { type Lhr, labResultFromLhr } from "./lab-result.server.ts";
import type { LabDevice, LabResult } from "./lab-types.ts";
import { metadataRefusal } from "./metadata-targets.server.ts";
import { startTrafficGuard, type TrafficGuard } from "./traffic-guard.server.ts";

// Entry point of the child process that runs one lab check (forked by lab-check.server.ts, never
// imported by the app). It is the leader of its own process group: the traffic guard runs here,
// Chromium is started in the same group, and Lighthouse (imported only here, so a server without it
// or without a browser still starts) loads the page and processes its trace. The parent kills the
// whole group when the time budget runs out; this process watches the group's memory itself.

export type LabJob = {
  url: string;
  device: LabDevice;
  /** true, false, or the private addresses allowed (tests). Metadata is refused whatever this says. */
  allowPrivate: boolean | string[];
  chromiumPath: string;
  profileDir: string;
  /** The group's resident memory (Chromium and this process) above which the run is killed. */
  memoryMb: number;
  /** Lighthouse's own wait for the page's load event. */
  maxWaitForLoadMs: number;
};

export type LabChildMessage =
  | { type: "outcome"; result: LabResult }
  | { type: "refused"; message: string }
  | { type: "memory"; rssMb: number }
  | { type: "failed"; message: string };

function send(message: LabChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

/**
 * Memory (MB) of every process in this process group (this one, Chromium and its children), as the
 * sum of their proportional set sizes: Chromium's processes share most of their pages (the binary,
 * shared memory), which a sum of RSS would count once per process (~1.5 GB for one home page).
 */
async function groupMemoryMb(): Promise<number> {
  let kb = 0;
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name, which is in parentheses and may hold spaces.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== process.pid) continue;
      const rollup = await readFile(`/proc/${entry}/smaps_rollup`, "utf8");
      kb += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // The process ended while we looked.
    }
  }
  return kb / 1024;
}

function allowPrivateOf(job: LabJob) {
  return Array.isArray(job.allowPrivate)
    ? (address: string) => (job.allowPrivate as string[]).includes(address)
    : job.allowPrivate;
}

/** The page's own address is checked before a browser starts: a refused target is not a run. */
async function checkTarget(job: LabJob): Promise<string | null> {
  const url = new URL(job.url);
  const byName = metadataRefusal(urlHost(url));
  if (byName) return byName;
  try {
    const { addresses } = await resolveCheckedTarget(
      url,
      { allowPrivate: allowPrivateOf(job), howToAllow: AUDIT_TARGET_TEXT.howToAllow },
      AbortSignal.timeout(10_000),
    );
    for (const { address } of addresses) {
      const refusal = metadataRefusal(address, urlHost(url));
      if (refusal) return refusal;
    }
    return null;
  } catch (error) {
    if (error instanceof SafeFetchError) return error.message;
    throw error;
  }
}

async function run(job: LabJob): Promise<LabChildMessage> {
  const refusal = await checkTarget(job);
  if (refusal) return { type: "refused", message: refusal };
  let guard: TrafficGuard | undefined;
  let browser: LaunchedChromium | undefined;
  const watch = setInterval(() => {
    void groupMemoryMb().then(async (rssMb) => {
      if (rssMb <= job.memoryMb) return;
      await send({ type: "memory", rssMb: Math.round(rssMb) });
      process.kill(-process.pid, "SIGKILL");
    });
  }, 1_000);
  try {
    guard = await startTrafficGuard({ allowPrivate: allowPrivateOf(job) });
    // Lighthouse's launcher flags, as `npm run lighthouse` starts Chromium, so both measure alike.
    const { Launcher } = await import("chrome-launcher");
    const flags = [...Launcher.defaultFlags(), ...labChromiumFlags(guard.proxyUrl, job.profileDir)];
    browser = await launchChromium(job.chromiumPath, flags);
    const { default: lighthouse } = await import("lighthouse");
    const config =
      job.device === "desktop"
        ? (await import("lighthouse/core/config/desktop-config.js")).default
        : undefined;
    const outcome = await lighthouse(
      job.url,
      {
        port: browser.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance"],
        maxWaitForLoad: job.maxWaitForLoadMs,
      },
      config,
    );
    if (!outcome) return { type: "failed", message: "Lighthouse returned no result." };
    const result = labResultFromLhr(outcome.lhr as unknown as Lhr, {
      url: job.url,
      device: job.device,
      blocked: guard.blocked,
      blockedCount: guard.blockedCount,
    });
    return { type: "outcome", result };
  } finally {
    clearInterval(watch);
    browser?.kill();
    await guard?.close();
  }
}

// The parent went away (crashed, killed): nobody wants the answer; take the browser down too.
process.on("disconnect", () => {
  try {
    process.kill(-process.pid, "SIGKILL");
  } catch {
    process.exit(0);
  }
});

const job = await new Promise<LabJob>((resolve) => {
  process.once("message", (message: { type: "job"; job: LabJob }) => resolve(message.job));
});
try {
  await send(await run(job));
} catch (error) {
  await send({ type: "failed", message: error instanceof Error ? error.message : String(error) });
}
process.exit(0);
