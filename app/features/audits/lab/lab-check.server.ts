import { fork } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { locateChildScript, secondsText, superviseChild } from "../child-supervision.server.ts";
import {
  CHROMIUM_MISSING_TITLE,
  canExecute,
  chromiumMissingText,
  chromiumPath as defaultChromiumPath,
} from "./lab-chromium.server.ts";
import type { LabChildMessage, LabJob } from "./lab-process.server.ts";
import { nothingMeasured } from "./lab-result.server.ts";
import type { LabDevice, LabResult } from "./lab-types.ts";

// Runs one lab check (issue 25) in a child process of its own, never on the server's event loop:
// Lighthouse's trace processing takes seconds of CPU and a few hundred MB. The child leads a new
// process group holding Chromium and its renderers; on overrun the whole group gets SIGKILL, and
// the browser profile (a fresh temporary folder) is deleted whatever happened. See ADR 031.

const SCRIPT_NAME = "lab-process.server.ts";
const SCRIPT_FROM_ROOT = join("app", "features", "audits", "lab", SCRIPT_NAME);

export type LabCheckLimits = {
  /** The whole run: start, load, trace processing. The group is killed past it. */
  timeoutMs: number;
  /** V8 heap of the child (the LHR and trace processing). */
  heapMb: number;
  /** Resident memory of the child's group (Chromium included) past which it is killed. */
  memoryMb: number;
};

export const DEFAULT_LAB_LIMITS: LabCheckLimits = { timeoutMs: 60_000, heapMb: 768, memoryMb: 1_536 };

export type LabCheckOptions = {
  device?: LabDevice;
  /** AUDIT_ALLOW_PRIVATE_TARGETS, or (tests) the private addresses allowed. Never metadata. */
  allowPrivate?: boolean | string[];
  chromiumPath?: string;
  timeoutMs?: number;
  limits?: Partial<LabCheckLimits>;
  /** Where the run's temporary profile folder is made (default: the system's temporary folder). */
  profileParent?: string;
};

/** Why a run has no measurement; the service maps each to an HTTP status. */
export type LabFailureKind = "chromium-missing" | "refused" | "unreachable" | "timeout" | "memory" | "crash";

export type LabCheckResult = LabResult & { failure?: LabFailureKind };

/** The child's entry file, beside this module (source, tests) or under the project root (build). */
export function locateLabProcessScript(from: string = import.meta.dirname ?? process.cwd()): string {
  return locateChildScript(from, SCRIPT_NAME, SCRIPT_FROM_ROOT, "The lab check's child process script");
}

/** Only what the child and Chromium need: never the database URL or secrets. HOME is the profile. */
function childEnvironment(profileDir: string): Record<string, string> {
  const kept: Record<string, string> = {
    NODE_ENV: process.env.NODE_ENV ?? "production",
    HOME: profileDir,
    XDG_CONFIG_HOME: join(profileDir, ".config"),
    XDG_CACHE_HOME: join(profileDir, ".cache"),
  };
  for (const name of ["TZ", "LANG", "PATH", "FONTCONFIG_PATH"]) {
    const value = process.env[name];
    if (value) kept[name] = value;
  }
  return kept;
}

function failed(url: string, device: LabDevice, failure: LabFailureKind, error: string, details: string) {
  return {
    url,
    finalUrl: url,
    device,
    fetchedAt: new Date().toISOString(),
    lighthouseVersion: "",
    ...nothingMeasured(),
    blocked: [],
    blockedCount: 0,
    warnings: [],
    error,
    details,
    failure,
  } satisfies LabCheckResult;
}

function killGroup(pid: number | undefined) {
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group is already gone.
  }
}

/**
 * Lighthouse's performance category for `url` in headless Chromium behind the traffic guard.
 * Always a result: a page that could not be measured has `error`, `details` and `failure` set.
 */
export async function runLabCheck(url: string, options: LabCheckOptions = {}): Promise<LabCheckResult> {
  const device = options.device ?? "mobile";
  const limits = { ...DEFAULT_LAB_LIMITS, ...options.limits };
  if (options.timeoutMs) limits.timeoutMs = options.timeoutMs;
  const browserPath = options.chromiumPath ?? defaultChromiumPath();
  if (!(await canExecute(browserPath)))
    return failed(url, device, "chromium-missing", CHROMIUM_MISSING_TITLE, chromiumMissingText(browserPath));
  const profileDir = await mkdtemp(join(options.profileParent ?? tmpdir(), "clausebridge-lab-"));
  const job: LabJob = {
    url,
    device,
    allowPrivate: options.allowPrivate ?? false,
    chromiumPath: browserPath,
    profileDir,
    memoryMb: limits.memoryMb,
    // Leaves the trace processing ~15 s of the budget.
    maxWaitForLoadMs: Math.max(5_000, Math.min(30_000, limits.timeoutMs - 30_000)),
  };
  return new Promise((resolve, reject) => {
    const child = fork(locateLabProcessScript(), [], {
      execArgv: [`--max-old-space-size=${limits.heapMb}`, "--disable-warning=ExperimentalWarning"],
      env: childEnvironment(profileDir),
      // Its own process group, so one kill takes Chromium and its renderers too.
      detached: true,
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    let message: LabChildMessage | undefined;
    const supervision = superviseChild(child, limits.timeoutMs, () => killGroup(child.pid));
    child.on("message", (received: LabChildMessage) => {
      // The memory notice comes first, then the group dies: keep it over anything later.
      if (message?.type !== "memory") message = received;
    });
    let settled = false;
    const settle = (value: LabCheckResult | Error) => {
      if (settled) return;
      settled = true;
      supervision.stop();
      // Whatever the child left (a renderer, a browser the child could not stop), and the profile:
      // removed without blocking the event loop, retried while a dying renderer still writes to it.
      killGroup(child.pid);
      void rm(profileDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
        .catch((error: Error) =>
          console.error(`Lab check: the profile ${profileDir} was not removed: ${error.message}`),
        )
        .then(() => (value instanceof Error ? reject(value) : resolve(value)));
    };
    child.on("error", (error) => settle(error));
    child.on("exit", (code, signal) => {
      if (message?.type === "outcome") {
        const { result } = message;
        return settle(result.error ? { ...result, failure: "unreachable" } : result);
      }
      if (message?.type === "refused")
        return settle(failed(url, device, "refused", "Refused", message.message));
      if (message?.type === "memory" || supervision.ranOutOfHeap())
        return settle(
          failed(
            url,
            device,
            "memory",
            "The page used too much memory",
            `The browser and Lighthouse went over their ${message?.type === "memory" ? limits.memoryMb : limits.heapMb} MB and were stopped.`,
          ),
        );
      if (supervision.timedOut)
        return settle(
          failed(
            url,
            device,
            "timeout",
            "The lab check took too long",
            `The page was not measured within ${secondsText(limits.timeoutMs)}; the browser was stopped.`,
          ),
        );
      const why = message?.type === "failed" ? message.message : `${signal ?? `exit code ${code}`}`;
      settle(failed(url, device, "crash", "The lab check failed", why.slice(0, 500)));
    });
    child.send({ type: "job", job });
  });
}
