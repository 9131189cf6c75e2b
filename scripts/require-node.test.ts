import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";

const script = join(import.meta.dirname, "require-node.cjs");

/** Runs the check as `npm start` does, on a Node that reports `version`. */
function runOn(version: string) {
  const pretend = `Object.defineProperty(process, "versions", { value: { ...process.versions, node: "${version}" } });`;
  return spawnSync(process.execPath, ["--eval", `${pretend} require(${JSON.stringify(script)});`], {
    encoding: "utf8",
  });
}

it("stops `npm start` on Node 20 and says exactly what to run", () => {
  const result = runOn("20.19.0");
  expect(result.status).toBe(1);
  expect(result.stderr).toContain("Clausebridge needs Node 24; this is Node 20.19.0.");
  expect(result.stderr).toContain(". scripts/node-env.sh");
});

it("lets Node 24 and later through silently", () => {
  for (const version of ["24.0.0", "25.1.0"]) {
    const result = runOn(version);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("");
  }
});
