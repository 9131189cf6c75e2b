import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Test-only (audits, the TLS check, webhooks): a throwaway certificate authority and the server
// certificates it issues, made with the openssl command line (no X.509 builder package is
// installed, and Node's crypto cannot issue certificates). `openssl ca` is the 3.0 command that
// takes explicit dates, so a leaf can have expired years ago. Test set-up only (no request path
// imports it): the synchronous openssl runs and file reads are fine here.

export type KeyPair = { key: string; cert: string };

export type TestCertificates = {
  ca: string;
  valid: KeyPair;
  expired: KeyPair;
};

export type LeafOptions = {
  /** `subjectAltName` value; by default localhost and 127.0.0.1. */
  altNames?: string;
  /** The subject's common name; localhost by default. */
  cn?: string;
  /** `openssl req` key arguments; a P-256 key by default. */
  key?: string[];
};

export type TestCertificateAuthority = {
  /** The CA's certificate: a client that trusts it trusts every leaf `issue` made. */
  ca: string;
  /** A leaf signed by the CA, with `openssl ca` date arguments (`-days 365`, `-startdate …`). */
  issue: (name: string, dates: string[], options?: LeafOptions) => KeyPair;
  /** A leaf signed by its own key: no CA vouches for it. */
  selfSigned: (name: string, options?: Pick<LeafOptions, "altNames" | "cn">) => KeyPair;
};

const LOCAL_NAMES = "DNS:localhost,IP:127.0.0.1";
const P256 = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

/** Runs `build` with a fresh CA named `caName`, and removes its files afterwards. */
export function withTestCertificateAuthority<T>(
  caName: string,
  build: (authority: TestCertificateAuthority) => T,
): T {
  const dir = mkdtempSync(join(tmpdir(), "test-ca-"));
  const run = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const read = (name: string): KeyPair => ({
    key: readFileSync(join(dir, `${name}.key`), "utf8"),
    cert: readFileSync(join(dir, `${name}.crt`), "utf8"),
  });
  try {
    run(
      "req",
      "-x509",
      ...P256,
      "-keyout",
      "ca.key",
      "-out",
      "ca.crt",
      "-days",
      "3",
      "-subj",
      `/CN=${caName}`,
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    );
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
      ].join("\n"),
    );
    writeFileSync(join(dir, "index.txt"), "");
    writeFileSync(join(dir, "serial"), "1000\n");
    const issue = (name: string, dates: string[], options: LeafOptions = {}): KeyPair => {
      const subject = `/CN=${options.cn ?? "localhost"}`;
      run("req", ...(options.key ?? P256), "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", subject);
      writeFileSync(
        join(dir, `${name}.ext`),
        [
          "[leaf]",
          `subjectAltName = ${options.altNames ?? LOCAL_NAMES}`,
          "basicConstraints = CA:FALSE",
          "extendedKeyUsage = serverAuth",
        ].join("\n"),
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
        "-extfile",
        `${name}.ext`,
        "-extensions",
        "leaf",
        "-in",
        `${name}.csr`,
        "-out",
        `${name}.crt`,
        ...dates,
      );
      return read(name);
    };
    const selfSigned = (name: string, options: Pick<LeafOptions, "altNames" | "cn"> = {}): KeyPair => {
      run(
        "req",
        "-x509",
        ...P256,
        "-keyout",
        `${name}.key`,
        "-out",
        `${name}.crt`,
        "-days",
        "365",
        "-subj",
        `/CN=${options.cn ?? "localhost"}`,
        "-addext",
        `subjectAltName=${options.altNames ?? LOCAL_NAMES}`,
      );
      return read(name);
    };
    return build({ ca: readFileSync(join(dir, "ca.crt"), "utf8"), issue, selfSigned });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One valid leaf for localhost/127.0.0.1 and one that expired in 2021, with their CA. */
export function createTestCertificates(): TestCertificates {
  return withTestCertificateAuthority("Clausebridge Test CA", ({ ca, issue }) => ({
    // A year: a certificate about to expire is itself an audit finding.
    valid: issue("valid", ["-days", "365"]),
    expired: issue("expired", ["-startdate", "20200101000000Z", "-enddate", "20210101000000Z"]),
    ca,
  }));
}
