// `npm start`: builds once when no production build exists (a fresh clone), then runs server.ts.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const needsBuild =
  !existsSync(join(root, "build", "server", "index.js")) ||
  !existsSync(join(root, "build", "static-manifest.json"));

if (needsBuild) {
  // On stderr, the build's output too: stdout is the server's JSON log alone (issue 22).
  console.error("No production build yet: running `npm run build` first.");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: ["inherit", 2, "inherit"] });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import("../server.ts");
