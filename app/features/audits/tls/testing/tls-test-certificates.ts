import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Test-only: a throwaway CA and the certificates the TLS check must judge, made with the openssl
// command line at test time (`openssl ca` is the 3.0 command that takes explicit dates). Every leaf
// names localhost and 127.0.0.1 except `mismatch`, which names only other.example.

export type KeyPair = { key: string; cert: string };

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

/** Test set-up only (no request path imports it): the synchronous openssl runs and reads are fine here. */
export function createTlsTestCertificates(): TlsTestCertificates {
  const dir = mkdtempSync(join(tmpdir(), "tls-check-certs-"));
  const run = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  const read = (name: string): KeyPair => ({
    key: readFileSync(join(dir, `${name}.key`), "utf8"),
    cert: readFileSync(join(dir, `${name}.crt`), "utf8"),
  });
  try {
    const caExtensions = [
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ];
    run(
      "req",
      "-x509",
      ...ec,
      "-keyout",
      "ca.key",
      "-out",
      "ca.crt",
      "-days",
      "3",
      "-subj",
      "/CN=TLS Check Test CA",
      ...caExtensions,
    );
    const leafSection = (name: string, altNames: string) => [
      `[${name}]`,
      `subjectAltName = ${altNames}`,
      "basicConstraints = CA:FALSE",
      "extendedKeyUsage = serverAuth",
    ];
    writeFileSync(
      join(dir, "ca.cnf"),
      [
        "[ca]",
        "default_ca = test",
        "[test]",
        `dir = ${dir}`,
        "database = $dir/index.txt",
        "new_certs_dir = $dir",
        "serial = $dir/serial",
        "default_md = sha256",
        "policy = anything",
        "unique_subject = no",
        "email_in_dn = no",
        "[anything]",
        "commonName = supplied",
        ...leafSection("local", "DNS:localhost,IP:127.0.0.1"),
        ...leafSection("other", "DNS:other.example"),
      ].join("\n"),
    );
    writeFileSync(join(dir, "index.txt"), "");
    writeFileSync(join(dir, "serial"), "2000\n");
    const issue = (
      name: string,
      dates: string[],
      options: { section?: string; key?: string[]; cn?: string } = {},
    ) => {
      const key = options.key ?? ec;
      run(
        "req",
        ...key,
        "-keyout",
        `${name}.key`,
        "-out",
        `${name}.csr`,
        "-subj",
        `/CN=${options.cn ?? "localhost"}`,
      );
      run(
        "ca",
        "-batch",
        "-notext",
        "-config",
        "ca.cnf",
        "-cert",
        "ca.crt",
        "-keyfile",
        "ca.key",
        "-extensions",
        options.section ?? "local",
        "-in",
        `${name}.csr`,
        "-out",
        `${name}.crt`,
        ...dates,
      );
      return read(name);
    };
    const valid = issue("valid", ["-days", "365"]);
    const expiring = issue("expiring", ["-days", "5"]);
    const expired = issue("expired", ["-startdate", "20200101000000Z", "-enddate", "20210101000000Z"]);
    const mismatch = issue("mismatch", ["-days", "365"], { section: "other", cn: "other.example" });
    const weakKey = issue("weak", ["-days", "365"], { key: ["-newkey", "rsa:1024", "-nodes"] });
    run(
      "req",
      "-x509",
      ...ec,
      "-keyout",
      "self.key",
      "-out",
      "self.crt",
      "-days",
      "365",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
    );
    return {
      ca: readFileSync(join(dir, "ca.crt"), "utf8"),
      valid,
      expiring,
      expired,
      mismatch,
      selfSigned: read("self"),
      weakKey,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
