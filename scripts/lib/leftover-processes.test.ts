import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import {
  checkLeftovers,
  findMarkedProcesses,
  isRunning,
  newRunId,
  RUN_MARKER,
  redactCommand,
} from "./leftover-processes.ts";

// Issue 33: after `npm test` no process of the suite may be left. A marked process (as Vitest's
// children are) that outlives the one that started it must be found, named, stopped; none left, none found.

const started: number[] = [];

const alive = (pid: number) => isRunning(pid);

/**
 * A parent, marked with the run's id, that starts a child of its own (detached, as a leaked server
 * would be left) and exits at once: the child's pid once the parent is gone.
 */
async function orphanOf(runId: string, childSource: string): Promise<number> {
  const parentSource = `
    const { spawn } = require("node:child_process");
    const child = spawn(process.execPath, ["-e", ${JSON.stringify(childSource)}, "leaked-by-a-test", "password=hunter2"], { detached: true, stdio: "ignore" });
    child.unref();
    console.log(child.pid);
  `;
  const parent = spawn(process.execPath, ["-e", parentSource], {
    env: { ...process.env, [RUN_MARKER]: runId },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  parent.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const code = await new Promise((resolve) => parent.on("exit", resolve));
  expect(code).toBe(0);
  const pid = Number(out.trim());
  expect(pid).toBeGreaterThan(0);
  started.push(pid);
  return pid;
}

afterEach(() => {
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
});

describe("the leftover check of npm test", () => {
  it("finds a marked process that outlived its parent, names it without secrets, and stops it", async () => {
    const runId = newRunId();
    const pid = await orphanOf(runId, "setInterval(() => {}, 1000)");
    expect(alive(pid)).toBe(true);

    const check = await checkLeftovers(runId, { settleMs: 300 });
    expect(check.leftovers.map((entry) => entry.pid)).toEqual([pid]);
    expect(check.notes[0]).toContain(`pid ${pid}, `);
    expect(check.notes[0]).toContain("leaked-by-a-test");
    expect(check.notes.join("\n")).not.toContain("hunter2");
    expect(check.notes.at(-1)).toMatch(/1 process of the suite outlived the run .*counted as 1 failed/);
    expect(alive(pid)).toBe(false);

    // Stopped: a second look finds nothing.
    expect(findMarkedProcesses(runId)).toEqual([]);
    expect(await checkLeftovers(runId, { settleMs: 0 })).toEqual({ leftovers: [], notes: [] });
  });

  it("kills one that ignores SIGTERM", async () => {
    const runId = newRunId();
    const pid = await orphanOf(runId, "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)");
    // Give it a moment to install its handler before the check signals it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const check = await checkLeftovers(runId, { settleMs: 0, graceMs: 500 });
    expect(check.leftovers.map((entry) => entry.pid)).toEqual([pid]);
    expect(alive(pid)).toBe(false);
  });

  it("finds nothing when every marked process has exited, and never another run's", async () => {
    const runId = newRunId();
    const pid = await orphanOf(runId, "setTimeout(() => {}, 50)");
    const other = await orphanOf(newRunId(), "setInterval(() => {}, 1000)");
    const check = await checkLeftovers(runId, { settleMs: 5_000 });
    expect(check).toEqual({ leftovers: [], notes: [] });
    expect(alive(pid)).toBe(false);
    expect(alive(other)).toBe(true);
  });

  it("hides passwords in the commands it prints", () => {
    expect(
      redactCommand("node x.ts postgres://app:s3cret@127.0.0.1:5432/db --password=abc --token xyz"),
    ).toBe("node x.ts postgres://app:***@127.0.0.1:5432/db --password=*** --token ***");
  });
});
