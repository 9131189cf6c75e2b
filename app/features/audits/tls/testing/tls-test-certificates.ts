import {
  type KeyPair,
  withTestCertificateAuthority,
} from "../../../../lib/safe-fetch/testing/test-certificates.ts";

// Test-only: a throwaway CA and the certificates the TLS check must judge. Every leaf names
// localhost and 127.0.0.1 except `mismatch`, which names only other.example.

export type { KeyPair };

export type TlsTestCertificates = {
  /** The CA's certificate: pass it as the TLS check's `ca` to make the CA-issued leaves trusted. */
  ca: string;
  valid: KeyPair;
  /** Expires in 5 days. */
  expiring: KeyPair;
  /** Valid 2020-2021. */
  expired: KeyPair;
  /** Trusted, but for other.example only. */
  mismatch: KeyPair;
  /** Signed by its own key: no CA vouches for it. */
  selfSigned: KeyPair;
  /** A 1024-bit RSA key. */
  weakKey: KeyPair;
};

export function createTlsTestCertificates(): Promise<TlsTestCertificates> {
  return withTestCertificateAuthority("TLS Check Test CA", async ({ ca, issue, selfSigned }) => ({
    ca,
    valid: await issue("valid", ["-days", "365"]),
    expiring: await issue("expiring", ["-days", "5"]),
    expired: await issue("expired", ["-startdate", "20200101000000Z", "-enddate", "20210101000000Z"]),
    mismatch: await issue("mismatch", ["-days", "365"], {
      altNames: "DNS:other.example",
      cn: "other.example",
    }),
    selfSigned: await selfSigned("self"),
    weakKey: await issue("weak", ["-days", "365"], { key: ["-newkey", "rsa:1024", "-nodes"] }),
  }));
}
