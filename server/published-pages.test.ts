import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublishedPages } from "./published-pages.ts";

// The published pages' compression (issue 24, ADR 028): the reader who asked for a page right after
// a publish gets it as soon as it is rendered, with a quick brotli; the best brotli, as the build
// gives prerendered pages, replaces it in the background for everyone after. Same page, same ETag.

// ~120 KB of varied text, as an article page with its inline stylesheet: brotli 11 beats brotli 5 on it.
const words = "contract notice payment variation subcontractor programme delay clause valuation".split(" ");
const PAGE = `<!doctype html><html><head><title>An article</title></head><body>${Array.from(
  { length: 6_000 },
  (_, i) => `<p class="p${i % 17}">${words[i % words.length]} ${words[(i * 7) % words.length]} ${i}</p>`,
).join("")}</body></html>`;

describe("published pages", () => {
  let renders = 0;
  const pages = createPublishedPages({
    async render() {
      renders += 1;
      return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
    generation: () => 1,
    cutCss: async (html) => html,
    baseHeaders: { plain: {}, https: {} },
    pageCookie: { plain: () => undefined, https: () => undefined },
  });
  const server = http.createServer((req, res) => {
    void pages.prepare("/blog/an-article").then((kept) => {
      if (!kept || !pages.serve(req, res, "/blog/an-article", false, [])) res.writeHead(500).end();
    });
  });
  let url = "";
  beforeAll(async () => {
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/blog/an-article`;
  });
  afterAll(() => new Promise((done) => server.close(done)));

  const get = (headers: Record<string, string> = { "accept-encoding": "br" }) =>
    new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((done, fail) => {
      http
        .get(url, { headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => done({ headers: response.headers, body: Buffer.concat(chunks) }));
        })
        .on("error", fail);
    });

  it("serves the first reader a quick brotli, then the best one, the same page under one ETag", async () => {
    const first = await get();
    expect(first.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(first.body).toString()).toBe(PAGE);

    await pages.idle();
    const after = await get();
    expect(after.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(after.body).toString()).toBe(PAGE);
    expect(after.body.length).toBeLessThan(first.body.length);
    expect(after.headers.etag).toBe(first.headers.etag);
    expect(renders).toBe(1);

    const plain = await get({});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(PAGE);
  });
});
