import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Issue 32 point 14: `npm run test:unit` and `npm run test:e2e` crashed on the machine's Node 20
// (`Map.groupBy is not a function`) while `npm test` re-ran itself under the project's Node 24; and
// `npm test -- --help` built the site, then failed. Every script now runs its commands through
// scripts/require-node.cjs, as `npm test` does.

const root = join(import.meta.dirname, "..");
const scripts = (
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }
).scripts;
const SYSTEM_NODE = "/usr/bin/node";
const systemNodeMajor = existsSync(SYSTEM_NODE)
  ? Number(
      spawnSync(SYSTEM_NODE, ["--version"], { encoding: "utf8" })
        .stdout.trim()
        .replace(/^v/, "")
        .split(".")[0],
    )
  : Number.NaN;
const olderSystemNode = Number.isFinite(systemNodeMajor) && systemNodeMajor < 24;

/** `npm <args>` in the project, with only the system's Node and npm on PATH (a fresh shell). */
function npmOnSystemNode(args: string[]) {
  const env: Record<string, string> = {
    PATH: "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/tmp",
    NO_COLOR: "1",
  };
  for (const name of ["TEST_DATABASE_URL", "REQUIRE_POSTGRES", "NODE_EXTRA_CA_CERTS"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return spawnSync("/usr/bin/npm", args, { cwd: root, encoding: "utf8", env, timeout: 120_000 });
}

describe("every npm script runs under the project's Node", () => {
  it("runs each command of each script through scripts/require-node.cjs (or another npm script)", () => {
    const direct: string[] = [];
    for (const [name, line] of Object.entries(scripts)) {
      for (const command of line.split("&&").map((part) => part.trim())) {
        const throughRequireNode = /^(exec )?node scripts\/require-node\.cjs \S/.test(command);
        const anotherScript = /^npm (run \S+|test|start)$/.test(command);
        if (!throughRequireNode && !anotherScript) direct.push(`${name}: ${command}`);
      }
    }
    expect(direct).toEqual([]);
    // No `pre` check that would stop an older Node before the script gets to re-run itself.
    expect(Object.keys(scripts).filter((name) => name.startsWith("pre"))).toEqual([]);
  });

  it.skipIf(!olderSystemNode)(
    `npm run test:unit on the system's Node ${systemNodeMajor} runs under Node 24 and passes`,
    () => {
      const result = npmOnSystemNode(["run", "test:unit", "--", "server/route-patterns.test.ts"]);
      expect(result.stderr).toContain(`this shell has Node ${systemNodeMajor}.`);
      expect(result.stderr).toContain("running under Node 24.");
      expect(`${result.stdout}${result.stderr}`).not.toContain("is not a function");
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/Tests\s+\d+ passed/);
    },
    150_000,
  );

  it.each([
    {
      name: "npm test -- --help",
      args: ["test", "--", "--help"],
      usage: "Usage: npm test [-- [--no-build]",
      ran: "react-router build",
    },
    {
      name: "npm run test:changed -- --help",
      args: ["run", "test:changed", "--", "--help"],
      usage: "Usage: npm run test:changed",
      ran: "test:changed: ",
    },
  ])("`$name` prints the usage and exits 0, running nothing", ({ args, usage, ran }) => {
    const result = spawnSync("npm", args, { cwd: root, encoding: "utf8", timeout: 60_000 });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(usage);
    expect(result.stdout).not.toContain(ran);
  });

  it.skipIf(!olderSystemNode)("`npm test -- --help` on the system's Node exits 0 too", () => {
    const result = npmOnSystemNode(["test", "--", "--help"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Usage: npm test");
  });
});
