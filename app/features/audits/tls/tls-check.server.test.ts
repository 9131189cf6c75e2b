import type { AddressInfo, Socket } from "node:net";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditIssue } from "../audit-types.ts";
import {
  createTlsTestCertificates,
  type KeyPair,
  type TlsTestCertificates,
} from "./testing/tls-test-certificates.ts";
import { runTlsCheck, type TlsCheckOptions } from "./tls-check.server.ts";

// The TLS check against local TLS servers with certificates made at test time: what a staff member
// reads on the page (certificate facts, chain, protocol table) and the findings the security audit
// takes over.

type Fixture = { url: string; close: () => Promise<void> };

async function startTlsServer(
  pair: KeyPair,
  versions: { min?: tls.SecureVersion; max?: tls.SecureVersion } = {},
): Promise<Fixture> {
  const server = tls.createServer(
    {
      ...pair,
      minVersion: versions.min ?? "TLSv1.2",
      maxVersion: versions.max ?? "TLSv1.3",
      // Level 0 so that a server configured for TLS 1.0 really serves it (OpenSSL 3's default refuses).
      ciphers: "DEFAULT@SECLEVEL=0",
    },
    (socket) => socket.end(),
  );
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  // The probes of refused versions end in handshake errors on this side: expected, not failures.
  server.on("tlsClientError", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let certificates: TlsTestCertificates;
const fixtures: Fixture[] = [];

async function serve(pair: KeyPair, versions?: Parameters<typeof startTlsServer>[1]) {
  const fixture = await startTlsServer(pair, versions);
  fixtures.push(fixture);
  return fixture.url;
}

/** localhost is resolved by this map, never by DNS, and only 127.0.0.1 is allowed. */
const options = (): TlsCheckOptions => ({
  allowPrivate: (address) => address === "127.0.0.1",
  resolver: async (host) => (host === "localhost" ? [{ address: "127.0.0.1", family: 4 }] : []),
  ca: certificates.ca,
  timeoutMs: 20_000,
  handshakeTimeoutMs: 8_000,
});

const ids = (issues: AuditIssue[]) => issues.map((issue) => `${issue.id}:${issue.severity}`);

beforeAll(async () => {
  certificates = await createTlsTestCertificates();
});

afterAll(async () => {
  await Promise.all(fixtures.map((fixture) => fixture.close()));
});

describe("runTlsCheck", () => {
  it("reads a trusted certificate and the TLS 1.2/1.3-only server's protocols", async () => {
    const result = await runTlsCheck(await serve(certificates.valid), options());
    expect(result.error).toBeUndefined();
    expect(result.address).toBe("127.0.0.1");
    expect(result.certificate).toMatchObject({
      subject: "CN=localhost",
      altNames: ["DNS:localhost", "IP Address:127.0.0.1"],
      matchesHost: true,
      issuer: "CN=TLS Check Test CA",
      keyType: "EC",
      keyBits: 256,
      chainVerified: true,
      verifyError: null,
    });
    expect(result.certificate?.daysLeft).toBeGreaterThanOrEqual(363);
    expect(result.protocols).toEqual({
      "TLS 1.0": false,
      "TLS 1.1": false,
      "TLS 1.2": true,
      "TLS 1.3": true,
    });
    expect(result.negotiated?.protocol).toBe("TLSv1.3");
    expect(ids(result.issues)).toEqual(["tls-certificate-valid:info"]);
  });

  it("finds TLS 1.0 and 1.1 on a server that still accepts them, and TLS 1.3 missing", async () => {
    const result = await runTlsCheck(
      await serve(certificates.valid, { min: "TLSv1", max: "TLSv1.2" }),
      options(),
    );
    expect(result.protocols).toEqual({ "TLS 1.0": true, "TLS 1.1": true, "TLS 1.2": true, "TLS 1.3": false });
    expect(result.negotiated?.protocol).toBe("TLSv1.2");
    expect(ids(result.issues)).toEqual([
      "tls-protocol-1-0-accepted:high",
      "tls-protocol-1-1-accepted:high",
      "tls-no-tls13:low",
      "tls-certificate-valid:info",
    ]);
  });

  it("calls a server that only speaks TLS 1.0 unusable for browsers", async () => {
    const result = await runTlsCheck(
      await serve(certificates.valid, { min: "TLSv1", max: "TLSv1" }),
      options(),
    );
    expect(result.protocols).toEqual({
      "TLS 1.0": true,
      "TLS 1.1": false,
      "TLS 1.2": false,
      "TLS 1.3": false,
    });
    expect(ids(result.issues)).toContain("tls-no-modern-protocol:critical");
  });

  it("rates a certificate expiring in 5 days high", async () => {
    const result = await runTlsCheck(await serve(certificates.expiring), options());
    expect(result.certificate?.daysLeft).toBeGreaterThanOrEqual(4);
    expect(result.certificate?.daysLeft).toBeLessThanOrEqual(5);
    expect(result.certificate?.chainVerified).toBe(true);
    expect(ids(result.issues)).toEqual(["tls-certificate-expiring:high"]);
    expect(result.issues[0]?.title).toMatch(/^TLS certificate expires in [45] days$/);
  });

  it("rates an expired certificate critical, its chain still trusted", async () => {
    const result = await runTlsCheck(await serve(certificates.expired), options());
    expect(result.certificate).toMatchObject({
      validTo: "2021-01-01T00:00:00.000Z",
      chainVerified: true,
    });
    expect(result.certificate?.daysLeft).toBeLessThan(-1000);
    expect(ids(result.issues)).toEqual(["tls-certificate-expired:critical"]);
  });

  it("rates a certificate for another host critical", async () => {
    const result = await runTlsCheck(await serve(certificates.mismatch), options());
    expect(result.certificate).toMatchObject({
      subject: "CN=other.example",
      altNames: ["DNS:other.example"],
      matchesHost: false,
      chainVerified: true,
    });
    expect(ids(result.issues)).toEqual(["tls-certificate-host-mismatch:critical"]);
    expect(result.issues[0]?.title).toBe("TLS certificate does not cover localhost");
  });

  it("does not trust a self-signed certificate, but still reads it", async () => {
    const result = await runTlsCheck(await serve(certificates.selfSigned), options());
    expect(result.certificate).toMatchObject({
      subject: "CN=localhost",
      matchesHost: true,
      chainVerified: false,
    });
    expect(result.certificate?.verifyError).toBe("DEPTH_ZERO_SELF_SIGNED_CERT");
    expect(ids(result.issues)).toEqual(["tls-certificate-invalid:critical"]);
  });

  it("does not trust the test CA's certificates with the default roots", async () => {
    const result = await runTlsCheck(await serve(certificates.valid), { ...options(), ca: undefined });
    expect(result.certificate?.chainVerified).toBe(false);
    expect(result.certificate?.verifyError).toBe("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    // An expired certificate from an untrusted CA is both: OpenSSL names only the dates.
    const expired = await runTlsCheck(await serve(certificates.expired), { ...options(), ca: undefined });
    expect(ids(expired.issues)).toEqual([
      "tls-certificate-expired:critical",
      "tls-certificate-invalid:critical",
    ]);
  });

  it("rates a 1024-bit RSA key high", async () => {
    const result = await runTlsCheck(await serve(certificates.weakKey), options());
    expect(result.certificate).toMatchObject({ keyType: "RSA", keyBits: 1024, chainVerified: true });
    expect(ids(result.issues)).toEqual(["tls-weak-key:high"]);
  });

  it("connects to the checked address only, with the name in SNI (no second lookup)", async () => {
    const url = await serve(certificates.valid);
    const port = new URL(url).port;
    let lookups = 0;
    const result = await runTlsCheck(`https://www.example-site.test:${port}/`, {
      ...options(),
      resolver: async () => {
        lookups += 1;
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    expect(lookups).toBe(1);
    expect(result.address).toBe("127.0.0.1");
    // The certificate is for localhost: the name checked is the one typed.
    expect(result.certificate?.matchesHost).toBe(false);
  });

  it("refuses a private target when private targets are not allowed, without connecting", async () => {
    const url = await serve(certificates.valid);
    const result = await runTlsCheck(url, { ...options(), allowPrivate: false });
    expect(result.error).toBe("Refused");
    expect(result.details).toMatch(/loopback address.*AUDIT_ALLOW_PRIVATE_TARGETS/);
    expect(result.certificate).toBeNull();
    expect(result.issues).toEqual([]);
    const metadata = await runTlsCheck("https://169.254.169.254/", { ...options(), allowPrivate: false });
    expect(metadata.error).toBe("Refused");
  });

  it("says why it could not check: plain http, nothing listening", async () => {
    const plain = await runTlsCheck("http://localhost/", options());
    expect(plain).toMatchObject({ error: "Not HTTPS", certificate: null });
    const closed = await runTlsCheck("https://127.0.0.1:1/", options());
    expect(closed.error).toBe("Connection failed");
    expect(closed.details).toBe("127.0.0.1:1 refused the connection.");
  });
});
