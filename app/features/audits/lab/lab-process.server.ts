import { Worker } from "node:worker_threads";
import { resolveCheckedTarget, SafeFetchError } from "#app/lib/safe-fetch/safe-connect.server.ts";
import { AUDIT_TARGET_TEXT, checkTargetUrl } from "../target-policy.server.ts";
import { type LaunchedChromium, launchChromium } from "./lab-browser.server.ts";
import { labChromiumFlags } from "./lab-chromium.server.ts";
import { type Lhr, labResultFromLhr } from "./lab-result.server.ts";
import type { LabDevice, LabProxyStats, LabResult } from "./lab-types.ts";
import type { GuardWorkerData, GuardWorkerMessage } from "./traffic-guard-worker.server.ts";

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

function allowPrivateOf(job: LabJob) {
  return Array.isArray(job.allowPrivate)
    ? (address: string) => (job.allowPrivate as string[]).includes(address)
    : job.allowPrivate;
}

/** The page's own address is checked before a browser starts: a refused target is not a run. */
async function checkTarget(job: LabJob): Promise<string | null> {
  // The shared policy: cloud metadata refused by name and by every resolved address, always.
  const checked = checkTargetUrl(new URL(job.url));
  if (!checked.ok) return checked.details;
  try {
    await resolveCheckedTarget(
      checked.url,
      {
        allowPrivate: allowPrivateOf(job),
        howToAllow: AUDIT_TARGET_TEXT.howToAllow,
        privateSwitch: AUDIT_TARGET_TEXT.privateSwitch,
      },
      AbortSignal.timeout(10_000),
    );
    return null;
  } catch (error) {
    if (error instanceof SafeFetchError) return error.message;
    throw error;
  }
}

type GuardThread = {
  proxyUrl: string;
  /** What the guard refused; the thread ends. */
  finish(): Promise<{
    blocked: { url: string; reason: string }[];
    blockedCount: number;
    proxy: LabProxyStats;
  }>;
  terminate(): void;
};

/** Starts the traffic guard and the memory watch on a thread of their own (see the worker's note). */
async function startGuardThread(job: LabJob): Promise<GuardThread> {
  const worker = new Worker(new URL("./traffic-guard-worker.server.ts", import.meta.url), {
    workerData: {
      allowPrivate: job.allowPrivate,
      group: process.pid,
      memoryMb: job.memoryMb,
    } satisfies GuardWorkerData,
  });
  worker.on("message", (message: GuardWorkerMessage) => {
    if (message.type !== "memory") return;
    void send({ type: "memory", rssMb: message.mb }).then(() => process.kill(-process.pid, "SIGKILL"));
  });
  const proxyUrl = await new Promise<string>((resolve, reject) => {
    worker.once("error", reject);
    const onMessage = (message: GuardWorkerMessage) => {
      if (message.type !== "ready") return;
      worker.off("message", onMessage);
      resolve(message.proxyUrl);
    };
    worker.on("message", onMessage);
  });
  return {
    proxyUrl,
    finish: () =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("The traffic guard did not answer.")), 5_000);
        worker.on("message", (message: GuardWorkerMessage) => {
          if (message.type !== "blocked") return;
          clearTimeout(timer);
          resolve({ blocked: message.blocked, blockedCount: message.blockedCount, proxy: message.proxy });
        });
        worker.postMessage({ type: "finish" });
      }),
    terminate: () => void worker.terminate(),
  };
}

async function run(job: LabJob): Promise<LabChildMessage> {
  const refusal = await checkTarget(job);
  if (refusal) return { type: "refused", message: refusal };
  let guard: GuardThread | undefined;
  let browser: LaunchedChromium | undefined;
  try {
    guard = await startGuardThread(job);
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
    browser.kill();
    const { blocked, blockedCount, proxy } = await guard.finish();
    if (!outcome) return { type: "failed", message: "Lighthouse returned no result." };
    const result = labResultFromLhr(outcome.lhr as unknown as Lhr, {
      url: job.url,
      device: job.device,
      blocked,
      blockedCount,
    });
    return { type: "outcome", result: { ...result, proxy } };
  } finally {
    browser?.kill();
    guard?.terminate();
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
