// `npm run bench:content [-- --posts N (1000)] [--requests N (300)] [--postgres]`
//
// The content studio's public pages at scale (issue 24): N published articles on a fresh database,
// then /blog, /sitemap.xml, /rss.xml and one article requested one at a time against the production
// build. Prints each page's p50/p95/p99 once kept in memory, and what the first request after a
// publish costs (the page is rendered, its stylesheet cut and compressed, then kept): measured after
// each of 10 publishes. Figures only; nothing is asserted. Needs a build (made when missing).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../app/db/database.server.ts";
import { createUser } from "../app/features/auth/users.server.ts";
import { publishPost } from "../app/features/content/posts/post-publishing.server.ts";
import { parsePostCreate } from "../app/features/content/posts/post-schema.ts";
import { createPost } from "../app/features/content/posts/posts-store.server.ts";
import { checkPostgres, createPostgresSchema } from "../tests/support/databases.ts";
import { runMain } from "./lib/run-main.ts";
import { type RunningServer, startServer } from "./lib/server-process.ts";
import { ensureBuild } from "./page-weight.ts";

const { values } = parseArgs({
  options: {
    posts: { type: "string", default: "1000" },
    requests: { type: "string", default: "300" },
    postgres: { type: "boolean", default: false },
  },
});
const POSTS = Number(values.posts);
const REQUESTS = Number(values.requests);

const BODY = Array.from(
  { length: 12 },
  (_, index) =>
    `## Part ${index + 1}\n\nA paragraph about notices, variations and payment dates on a construction contract, with [a link](/features) and **some emphasis** to render.`,
).join("\n\n");

let server: RunningServer | undefined;
let cleanup: () => Promise<void> = async () => {};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: { "Accept-Encoding": "br" } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return performance.now() - started;
}

async function main(): Promise<number> {
  ensureBuild();
  let databaseUrl: string;
  if (values.postgres) {
    if (!(await checkPostgres())) throw new Error("PostgreSQL is not reachable (TEST_DATABASE_URL).");
    const schema = await createPostgresSchema();
    databaseUrl = schema.url;
    cleanup = schema.drop;
  } else {
    const dir = mkdtempSync(join(tmpdir(), "bench-content-"));
    databaseUrl = join(dir, "content.sqlite");
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  // The server migrates and imports content/ first; the posts are added beside it.
  server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: "error" });
  const database = openDatabase(databaseUrl, { poolSize: 2 });
  const seeded = performance.now();
  let slugs: string[] = [];
  try {
    const user = await createUser(database.db, {
      username: "bench-writer",
      password: "bench writer passphrase",
      role: "marketing",
    });
    const actor = { id: user.id, username: user.username };
    const day = 86_400_000;
    for (let index = 0; index < POSTS; index++) {
      const parsed = parsePostCreate({
        kind: "article",
        title: `Contract note ${index + 1}: what the clause really says`,
        excerpt: `Note ${index + 1} on reading construction contracts.`,
        body: BODY,
        tags: ["contracts"],
      });
      if (!parsed.success) throw new Error(JSON.stringify(parsed.errors));
      const at = new Date(Date.now() - (POSTS - index) * day);
      const created = await createPost(database.db, parsed.data, actor, at);
      if (created.kind !== "created") throw new Error(created.kind);
      await publishPost(database.db, created.post.id, actor, { now: at });
      slugs.push(created.post.slug);
    }
  } finally {
    await database.close();
  }
  console.log(
    `bench:content — ${POSTS} published articles (plus the 5 imported) on ${values.postgres ? "PostgreSQL" : "SQLite"}, seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s; ${REQUESTS} sequential requests per page\n`,
  );
  const base = server.url;
  // The posts were added behind the server's back: give its once-a-second check time to see them.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const pages = ["/blog", "/sitemap.xml", "/rss.xml", `/blog/${slugs[Math.floor(slugs.length / 2)]}`];
  console.log("| page | first request (renders) ms | kept: p50 / p95 / p99 ms | bytes (br) |");
  console.log("| --- | ---: | ---: | ---: |");
  for (const page of pages) {
    const first = await timed(`${base}${page}`);
    const times: number[] = [];
    for (let index = 0; index < REQUESTS; index++) times.push(await timed(`${base}${page}`));
    times.sort((a, b) => a - b);
    const response = await fetch(`${base}${page}`, { headers: { "Accept-Encoding": "br" } });
    const bytes = (await response.arrayBuffer()).byteLength;
    console.log(
      `| ${page} | ${first.toFixed(1)} | ${percentile(times, 50).toFixed(1)} / ${percentile(times, 95).toFixed(1)} / ${percentile(times, 99).toFixed(1)} | ${bytes.toLocaleString("en-GB")} |`,
    );
  }
  slugs = [];
  return 0;
}

await runMain("bench:content", main, async () => {
  await server?.stop();
  await cleanup();
});
