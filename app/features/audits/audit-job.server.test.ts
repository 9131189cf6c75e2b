import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuditJob } from "./audit-job.server.ts";
import { scanWebsite } from "./audit-scan.server.ts";
import { analyse } from "./observatory/analyse.ts";
import { startTestServer, type TestServer } from "./testing/test-servers.ts";
import { createTlsTestCertificates } from "./tls/testing/tls-test-certificates.ts";

// Issue 25: a security audit of an https site carries the TLS check's findings among its issues,
// with the Observatory score and grade exactly what the Observatory analysis alone gives.

let site: TestServer;

beforeAll(async () => {
  site = await startTestServer(
    "https",
    (_request, response) => {
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      response.end("<!doctype html><title>Site</title><p>Hello</p>");
    },
    (await createTlsTestCertificates()).expiring,
  );
});

afterAll(async () => {
  await site?.close();
});

describe("runAuditJob", () => {
  it("adds the TLS findings of an https site without changing its score or grade", async () => {
    const url = `https://localhost:${site.port}/`;
    const outcome = await runAuditJob({ url, allowPrivate: true }, async () => null);
    if (outcome.kind !== "result") throw new Error(`not graded: ${JSON.stringify(outcome)}`);
    const { issues } = outcome.result;
    const tls = issues
      .filter((issue) => issue.id.startsWith("tls-"))
      .map((issue) => `${issue.id}:${issue.severity}`);
    // The test CA is not among this machine's trusted roots; the certificate expires in 5 days.
    expect(tls).toEqual(["tls-certificate-expiring:high", "tls-certificate-invalid:critical"]);
    expect(issues.find((issue) => issue.id === "tls-certificate-invalid")?.description).toContain(
      "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
    );

    const scan = await scanWebsite(new URL(url), { allowPrivate: true });
    const observatoryOnly = analyse(scan, { corsOrigin: scan.corsOrigin, hstsPreload: null });
    expect(outcome.result.score).toBe(observatoryOnly.score);
    expect(outcome.result.grade).toBe(observatoryOnly.grade);
    expect(outcome.result.tests).toEqual(observatoryOnly.tests);
    // The rest of the issues are the Observatory's, in its order.
    const others = (list: { id: string }[]) =>
      list.map((issue) => issue.id).filter((id) => !id.startsWith("tls-"));
    expect(others(issues)).toEqual(others(observatoryOnly.issues));
  });
});
