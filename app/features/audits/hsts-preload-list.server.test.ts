import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import * as hstsPreload006 from "../../db/migrations/006-hsts-preload.ts";
import {
  hstsPreloadFor,
  hstsPreloadListInfo,
  PreloadListError,
  parseChromiumPreloadList,
  replaceHstsPreloadList,
  updateHstsPreloadList,
} from "./hsts-preload-list.server.ts";
import { findHstsPreload } from "./observatory/hsts-preload.ts";
import { CHROMIUM_PRELOAD_LIST_SAMPLE, SAMPLE_PRELOADED } from "./testing/chromium-preload-list.ts";

describe("reading Chromium's preload list", () => {
  it("keeps the force-https entries, skipping comments, pins-only entries and malformed names", () => {
    expect(parseChromiumPreloadList(CHROMIUM_PRELOAD_LIST_SAMPLE)).toEqual(SAMPLE_PRELOADED);
  });

  it("accepts the base64 text googlesource serves with ?format=TEXT", () => {
    const base64 = Buffer.from(CHROMIUM_PRELOAD_LIST_SAMPLE).toString("base64").replace(/.{76}/g, "$&\n");
    expect(parseChromiumPreloadList(base64)).toEqual(SAMPLE_PRELOADED);
  });

  it.each([
    ["truncated JSON", CHROMIUM_PRELOAD_LIST_SAMPLE.slice(0, 600), /not valid JSON/],
    ["an HTML error page", "<html><body>Rate limited</body></html>", /not valid JSON/],
    ["no entries array", '{"pinsets": []}', /no "entries" array/],
    ["no force-https entry", '{"entries": [{"name": "a.example", "pins": "x"}]}', /no "force-https" entries/],
  ])("refuses %s with a message saying why", (_case, text, message) => {
    expect(() => parseChromiumPreloadList(text)).toThrow(PreloadListError);
    expect(() => parseChromiumPreloadList(text)).toThrow(message);
  });
});

describeEachDatabase("the stored HSTS preload list", (use) => {
  it("is absent until the list has been stored once", async () => {
    expect(await hstsPreloadListInfo(use().db)).toBeNull();
    expect(await hstsPreloadFor(use().db, ["www.example.dev"])).toBeNull();
  });

  it("stores thousands of names in batches and returns only the rows an audit needs", async () => {
    const many = Array.from({ length: 2_345 }, (_, index) => ({
      name: `site-${index}.example`,
      includeSubdomains: index % 2 === 0,
    }));
    const info = await replaceHstsPreloadList(use().db, [...many, ...SAMPLE_PRELOADED], {
      source: "https://example.test/list.json",
      retrievedAt: "2026-11-20T10:00:00.000Z",
    });
    expect(info.count).toBe(2_350);
    const snapshot = await hstsPreloadFor(use().db, [
      "a.b.site-10.example",
      "www.example.dev",
      "site-11.example",
    ]);
    expect(snapshot).toMatchObject({
      source: "https://example.test/list.json",
      retrievedAt: "2026-11-20T10:00:00.000Z",
    });
    expect(Object.fromEntries(snapshot?.entries ?? [])).toEqual({
      "site-10.example": true,
      "site-11.example": false,
      dev: true,
    });
    expect(findHstsPreload(snapshot ?? null, "a.b.site-10.example")?.name).toBe("site-10.example");
    expect(findHstsPreload(snapshot ?? null, "www.site-11.example")).toBeNull();
  });

  it("lets two updates at once both finish, leaving one whole list", async () => {
    const list = (prefix: string) =>
      Array.from({ length: 1_500 }, (_, index) => ({
        name: `${prefix}-${index}.example`,
        includeSubdomains: true,
      }));
    const [first, second] = await Promise.all([
      replaceHstsPreloadList(use().db, list("first"), {
        source: "first",
        retrievedAt: "2026-11-21T09:00:00.000Z",
      }),
      replaceHstsPreloadList(use().db, list("second"), {
        source: "second",
        retrievedAt: "2026-11-21T09:00:01.000Z",
      }),
    ]);
    expect([first.count, second.count]).toEqual([1_500, 1_500]);
    const info = await hstsPreloadListInfo(use().db);
    const rows = await use().db.selectFrom("hstsPreload").select("name").execute();
    expect(rows).toHaveLength(1_500);
    expect(rows.every((row) => row.name.startsWith(`${info?.source}-`))).toBe(true);
  });

  it("replaces the previous list whole: names dropped from Chromium's list stop counting", async () => {
    await replaceHstsPreloadList(use().db, [{ name: "only-now.example", includeSubdomains: true }], {
      source: "second",
      retrievedAt: "2026-11-21T10:00:00.000Z",
    });
    expect(await hstsPreloadListInfo(use().db)).toEqual({
      source: "second",
      retrievedAt: "2026-11-21T10:00:00.000Z",
      count: 1,
    });
    const snapshot = await hstsPreloadFor(use().db, ["site-10.example", "www.only-now.example"]);
    expect(Object.fromEntries(snapshot?.entries ?? [])).toEqual({ "only-now.example": true });
  });

  it("is forgotten when migration 006 is rolled back, so audits do not count on an empty table", async () => {
    expect(await hstsPreloadListInfo(use().db)).not.toBeNull();
    const schema = use().db as unknown as Kysely<unknown>;
    await hstsPreload006.down(schema);
    await hstsPreload006.up(schema);
    expect(await hstsPreloadListInfo(use().db)).toBeNull();
    expect(await hstsPreloadFor(use().db, ["www.only-now.example"])).toBeNull();
  });
});

/** A port nothing listens on (fetch refuses the well-known "bad ports" such as 1 before connecting). */
async function closedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describeEachDatabase("updating the HSTS preload list", (use) => {
  let server: http.Server;
  let origin = "";
  let dir = "";
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "preload-list-"));
    server = http.createServer((request, response) => {
      if (request.url === "/transport_security_state_static.json") {
        response.writeHead(200, { "Content-Type": "text/plain" });
        response.end(CHROMIUM_PRELOAD_LIST_SAMPLE);
      } else {
        response.writeHead(404).end("Not found");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it("downloads, checks and stores the list", async () => {
    const from = `${origin}/transport_security_state_static.json`;
    const now = new Date("2026-11-21T12:00:00.000Z");
    expect(await updateHstsPreloadList(use().db, from, now)).toEqual({
      source: from,
      retrievedAt: now.toISOString(),
      count: 5,
      withSubdomains: 3,
    });
    const snapshot = await hstsPreloadFor(use().db, ["upper.example"]);
    expect(snapshot?.entries.get("upper.example")).toBe(true);
  });

  it("reads a local copy too", async () => {
    const file = join(dir, "list.json");
    writeFileSync(file, CHROMIUM_PRELOAD_LIST_SAMPLE);
    expect((await updateHstsPreloadList(use().db, file)).count).toBe(5);
  });

  it("keeps the stored list when the download fails", async () => {
    const before = await hstsPreloadListInfo(use().db);
    await expect(updateHstsPreloadList(use().db, `${origin}/missing.json`)).rejects.toThrow(
      /answered HTTP 404/,
    );
    const closed = `http://127.0.0.1:${await closedPort()}/list.json`;
    await expect(updateHstsPreloadList(use().db, closed)).rejects.toThrow(
      `Could not download ${closed} (${new URL(closed).host} refused the connection (connect ECONNREFUSED 127.0.0.1:${new URL(closed).port})). Without a route to it, download the file elsewhere and pass it with --from <file>.`,
    );
    writeFileSync(join(dir, "bad.json"), '{"entries": ');
    await expect(updateHstsPreloadList(use().db, join(dir, "bad.json"))).rejects.toThrow(/not valid JSON/);
    expect(await hstsPreloadListInfo(use().db)).toEqual(before);
  });
});
