import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

// Test-only (audits, the TLS check, webhooks): a throwaway certificate authority and the server
// certificates it issues, made with the openssl command line (no X.509 builder package is
// installed, and Node's crypto cannot issue certificates). `openssl ca` is the 3.0 command that
// takes explicit dates, so a leaf can have expired years ago. Test set-up only (no request path
// imports it), and asynchronous all the same: the openssl runs and file reads never hold a loop.

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
  issue: (name: string, dates: string[], options?: LeafOptions) => Promise<KeyPair>;
  /** A leaf signed by its own key: no CA vouches for it. */
  selfSigned: (name: string, options?: Pick<LeafOptions, "altNames" | "cn">) => Promise<KeyPair>;
};

const LOCAL_NAMES = "DNS:localhost,IP:127.0.0.1";
const P256 = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

/** Runs `build` with a fresh CA named `caName`, and removes its files afterwards. */
export async function withTestCertificateAuthority<T>(
  caName: string,
  build: (authority: TestCertificateAuthority) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "test-ca-"));
  const run = (...args: string[]) => promisify(execFile)("openssl", args, { cwd: dir });
  const read = async (name: string): Promise<KeyPair> => ({
    key: await readFile(join(dir, `${name}.key`), "utf8"),
    cert: await readFile(join(dir, `${name}.crt`), "utf8"),
  });
  try {
    await run(
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
    await writeFile(
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
    await writeFile(join(dir, "index.txt"), "");
    await writeFile(join(dir, "serial"), "1000\n");
    const issue = async (name: string, dates: string[], options: LeafOptions = {}): Promise<KeyPair> => {
      const subject = `/CN=${options.cn ?? "localhost"}`;
      await run(
        "req",
        ...(options.key ?? P256),
        "-keyout",
        `${name}.key`,
        "-out",
        `${name}.csr`,
        "-subj",
        subject,
      );
      await writeFile(
        join(dir, `${name}.ext`),
        [
          "[leaf]",
          `subjectAltName = ${options.altNames ?? LOCAL_NAMES}`,
          "basicConstraints = CA:FALSE",
          "extendedKeyUsage = serverAuth",
        ].join("\n"),
      );
      await run(
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
    const selfSigned = async (
      name: string,
      options: Pick<LeafOptions, "altNames" | "cn"> = {},
    ): Promise<KeyPair> => {
      await run(
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
    return await build({ ca: await readFile(join(dir, "ca.crt"), "utf8"), issue, selfSigned });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One valid leaf for localhost/127.0.0.1 and one that expired in 2021, with their CA. */
export function createTestCertificates(): Promise<TestCertificates> {
  return withTestCertificateAuthority("Clausebridge Test CA", async ({ ca, issue }) => ({
    // A year: a certificate about to expire is itself an audit finding.
    valid: await issue("valid", ["-days", "365"]),
    expired: await issue("expired", ["-startdate", "20200101000000Z", "-enddate", "20210101000000Z"]),
    ca,
  }));
}
