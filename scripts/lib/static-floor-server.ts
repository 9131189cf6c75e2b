// `node scripts/lib/static-floor-server.ts <build dir> <port>`: Node's own floor for the static path,
// for npm run bench:pages. The same prepared files, with the same headers, sent by server/static-files.ts
// from a bare node:http server: no request guard, id, log, metrics or counting. What server.ts costs
// above this row is ours to cut; what this row costs above nginx is Node's HTTP stack.
import { createServer } from "node:http";
import { baseSecurityHeaders } from "../../server/security-headers.ts";
import { StaticFiles } from "../../server/static-files.ts";

const [buildDir, port] = process.argv.slice(2);
if (!buildDir || !port) {
  console.error("usage: node scripts/lib/static-floor-server.ts <build dir> <port>");
  process.exit(2);
}
const files = new StaticFiles(buildDir, baseSecurityHeaders(false), false);
createServer((req, res) => {
  if (files.serve(req, res)) return;
  res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
  res.end("Not found\n");
}).listen(Number(port), "127.0.0.1", () => console.error(`floor server listening on ${port}`));
