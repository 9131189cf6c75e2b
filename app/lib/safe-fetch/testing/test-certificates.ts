import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Test-only (audits and webhooks): a throwaway certificate authority and server certificates for
// localhost/127.0.0.1, made with the openssl command line (no X.509 builder package is installed,
// and Node's crypto cannot issue certificates). One valid leaf, one that expired in 2021 (`openssl
// ca` is the only 3.0 command that takes explicit dates).

export type TestCertificates = {
  ca: string;
  valid: { key: string; cert: string };
  expired: { key: string; cert: string };
};

export function createTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), "audit-certs-"));
  const run = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  try {
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
      "/CN=Clausebridge Test CA",
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
        "[leaf]",
        "subjectAltName = DNS:localhost,IP:127.0.0.1",
        "basicConstraints = CA:FALSE",
        "extendedKeyUsage = serverAuth",
      ].join("\n"),
    );
    writeFileSync(join(dir, "index.txt"), "");
    writeFileSync(join(dir, "serial"), "1000\n");
    const issue = (name: string, dates: string[]) => {
      run("req", ...ec, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", "/CN=localhost");
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
        "leaf",
        "-in",
        `${name}.csr`,
        "-out",
        `${name}.crt`,
        ...dates,
      );
      return {
        key: readFileSync(join(dir, `${name}.key`), "utf8"),
        cert: readFileSync(join(dir, `${name}.crt`), "utf8"),
      };
    };
    return {
      // A year: a certificate about to expire is itself an audit finding.
      valid: issue("valid", ["-days", "365"]),
      expired: issue("expired", ["-startdate", "20200101000000Z", "-enddate", "20210101000000Z"]),
      ca: readFileSync(join(dir, "ca.crt"), "utf8"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
