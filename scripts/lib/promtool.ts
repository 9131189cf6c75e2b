import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

// promtool (Prometheus's own checker), when this machine has it: PROMTOOL, then PATH, then the copy
// scripts/install-promtool.sh extracts into tools/promtool (what .ci/run does).

const root = join(import.meta.dirname, "..", "..");

export function findPromtool(): string | undefined {
  const candidates = [
    process.env.PROMTOOL,
    ...(process.env.PATH ?? "").split(delimiter).map((dir) => dir && join(dir, "promtool")),
    join(root, "tools", "promtool", "promtool"),
  ];
  return candidates.find((path): path is string => Boolean(path) && existsSync(path as string));
}

/** `promtool check metrics` on an exposition: its exit status and what it said. */
export function promtoolCheckMetrics(
  promtool: string,
  exposition: string,
): { status: number | null; output: string } {
  const result = spawnSync(promtool, ["check", "metrics"], { input: exposition, encoding: "utf8" });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}
