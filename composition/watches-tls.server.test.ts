import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { getCACertificates, setDefaultCACertificates } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "#app/env.server.ts";
import {
  createTlsTestCertificates,
  type TlsTestCertificates,
} from "#app/features/audits/tls/testing/tls-test-certificates.ts";
import { type WatchServices, watchServicesKey } from "#app/features/audits/watches/watch-context.server.ts";
import { createWatch } from "#app/features/audits/watches/watch-service.server.ts";
import { listAlerts, listRuns } from "#app/features/audits/watches/watch-store.server.ts";
import { checkPostgres, createEmptyDatabaseUrl } from "../tests/support/databases.ts";
import { createServices, type Services } from "./services.server.ts";

// Issue 25: a watched https site's certificate, through the TLS check as the server wires it, on
// both databases. A certificate with 5 days left opens the "expires within 14 days" alert; an
// untrusted one opens "does not verify"; a renewed one resolves both. The test CA is trusted for
// this process only (as a system root would be), so "verifies" means what it means in production.

const SECRET = "test-secret-test-secret-test-secret";

const watchServicesOf = (services: Services) =>
  services.provided.find(([key]) => key === watchServicesKey)?.[1] as WatchServices;

let certificates: TlsTestCertificates;
const systemRoots = getCACertificates("default");

beforeAll(async () => {
  certificates = await createTlsTestCertificates();
  setDefaultCACertificates([...systemRoots, certificates.ca]);
});

afterAll(() => {
  setDefaultCACertificates(systemRoots);
});

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`a watched site's certificate [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    let site: Server;
    let services: Services;
    let dispose = async () => {};

    beforeAll(async () => {
      if (!available) return;
      site = createServer(certificates.expiring, (_request, response) => {
        response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        response.end("<!doctype html><title>Watched</title>");
      });
      await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
      const database = await createEmptyDatabaseUrl(kind);
      const databaseUrl = database.url;
      dispose = database.dispose;
      services = await createServices(
        parseEnv({
          DATABASE_URL: databaseUrl,
          APP_SECRET: SECRET,
          LOG_LEVEL: "silent",
          AUDIT_ALLOW_PRIVATE_TARGETS: "true",
          WATCH_POLL_SECONDS: "3600",
        }),
      );
    }, 60_000);

    afterAll(async () => {
      await services?.database.close();
      site?.closeAllConnections();
      await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
      await dispose();
    });

    if (!available) return;

    it("alerts on 5 days left and on a chain that does not verify, and resolves both once renewed", async () => {
      const db = services.database.db;
      const { runWatch, checks } = watchServicesOf(services);
      expect(checks).toContain("tls");
      const port = (site.address() as AddressInfo).port;
      const created = await createWatch(
        db,
        { url: `https://localhost:${port}/`, checks: ["tls"], every: "daily", recipients: "ops@example.com" },
        "tester",
        { allowPrivate: true, checks },
      );
      if (!created.ok) throw new Error(created.message);
      const id = created.watch.id;
      const serve = (pair: { key: string; cert: string }) => site.setSecureContext(pair);
      const open = async () =>
        (await listAlerts(db, id))
          .filter((alert) => alert.resolvedAt === null)
          .map((alert) => alert.condition);

      // 5 days left, from a trusted CA: one alert, about the expiry only.
      const first = await runWatch(id, "manual");
      expect(first?.results.tls).toMatchObject({ ok: true, summary: { verified: true } });
      expect(first?.tlsDaysLeft).toBeGreaterThanOrEqual(4);
      expect(first?.tlsDaysLeft).toBeLessThanOrEqual(5);
      expect(await open()).toEqual(["certificate-expiring"]);

      // Replaced by a self-signed one (valid for months): it no longer expires soon, but nobody vouches for it.
      serve(certificates.selfSigned);
      const second = await runWatch(id, "manual");
      expect(second?.results.tls).toMatchObject({ ok: true, summary: { verified: false } });
      expect(await open()).toEqual(["certificate-unverified"]);

      // Renewed properly: nothing open, each alert resolved once.
      serve(certificates.valid);
      await runWatch(id, "manual");
      expect(await open()).toEqual([]);
      const alerts = await listAlerts(db, id);
      expect(alerts.map((alert) => [alert.condition, alert.resolvedAt === null]).sort()).toEqual([
        ["certificate-expiring", false],
        ["certificate-unverified", false],
      ]);
      expect((await listRuns(db, id)).map((run) => run.tlsVerified)).toEqual([true, false, true]);
    }, 60_000);
  });
}
