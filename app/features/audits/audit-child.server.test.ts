import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditChildError, locateAuditProcessScript, runAuditInChild } from "./audit-child.server.ts";
import { type HostileServer, startHostileServer } from "./testing/hostile-page.ts";

// Issue 9 point 11: a security audit runs in a child process with a memory limit and a time-out;
// whatever the audited page does, this process only gets a result or a clear error.

const noPreload = async () => null;
let hostile: HostileServer;
let silent: http.Server;
let silentUrl = "";

beforeAll(async () => {
  hostile = await startHostileServer();
  // Accepts connections and never answers.
  silent = http.createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await hostile?.close();
  silent?.closeAllConnections();
  await new Promise((resolve) => silent?.close(resolve));
});

describe("security audit in a child process", () => {
  it("grades a 2 MB page of tiny tags without holding this process's memory", async () => {
    const before = process.memoryUsage().rss;
    const outcome = await runAuditInChild({ url: hostile.url, allowPrivate: true }, noPreload);
    expect(outcome.kind).toBe("result");
    if (outcome.kind !== "result") return;
    expect(outcome.result).toMatchObject({ url: hostile.url, grade: "F", algorithmVersion: 5 });
    // Parsing it in-process grew RSS by ~290 MB; here only the small result crossed over.
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it("asks this process for the HSTS preload entries of the hosts it met", async () => {
    const asked: string[][] = [];
    await runAuditInChild({ url: hostile.url, allowPrivate: true }, async (hosts) => {
      asked.push(hosts);
      return null;
    });
    expect(asked).toEqual([["127.0.0.1"]]);
  });

  it("reports an unreachable or refused target as the child found it", async () => {
    await expect(
      runAuditInChild({ url: "http://127.0.0.1:1/", allowPrivate: true }, noPreload),
    ).resolves.toMatchObject({ kind: "unreachable", failure: { error: "Connection refused" } });
    await expect(
      runAuditInChild({ url: hostile.url, allowPrivate: false }, noPreload),
    ).resolves.toMatchObject({ kind: "unreachable", failure: { error: "Refused" } });
  });

  it("ends a child that runs out of its memory limit with a clear message", async () => {
    const failure = runAuditInChild({ url: hostile.url, allowPrivate: true }, noPreload, {
      timeoutMs: 30_000,
      heapMb: 32,
    });
    await expect(failure).rejects.toBeInstanceOf(AuditChildError);
    await expect(failure).rejects.toMatchObject({
      kind: "memory",
      message: "The page is too large or complex to analyse: the audit ran out of its 32 MB of memory.",
    });
  });

  it("kills a child that takes longer than its time-out", async () => {
    const failure = runAuditInChild({ url: silentUrl, allowPrivate: true }, noPreload, {
      timeoutMs: 1_500,
      heapMb: 256,
    });
    await expect(failure).rejects.toMatchObject({
      kind: "timeout",
      message: "The audit did not finish within 2 s.",
    });
  });

  it("finds its script from the source and from the bundle's folder", () => {
    const source = locateAuditProcessScript();
    expect(source).toMatch(/app\/features\/audits\/audit-process\.server\.ts$/);
    const root = join(import.meta.dirname, "..", "..", "..");
    expect(locateAuditProcessScript(join(root, "build", "server"))).toBe(source);
  });
});
