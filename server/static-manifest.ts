// The contract between the build (scripts/postbuild.ts) and the server (server/static-files.ts):
// every file the server may send without running React, with its headers decided at build time.

export const STATIC_MANIFEST_FILE = "static-manifest.json";

export type Encoding = "br" | "gzip";

export type StaticEntry = {
  /** Path of the file under build/client. */
  file: string;
  contentType: string;
  cacheControl: string;
  etag: string;
  /** Precompressed siblings written next to the file (`<file>.br`, `<file>.gz`). */
  encodings: Encoding[];
  /** CSP hashes of the inline scripts of a prerendered HTML page. */
  scriptHashes?: string[];
  /** Extra response headers, e.g. Content-Disposition for the PDF deck. */
  headers?: Record<string, string>;
};

export type StaticManifest = {
  /** The public origin baked into canonical URLs and feeds when the build ran. */
  publicUrl: string;
  /** Keyed by URL path, e.g. `/`, `/problem`, `/assets/root-abc123.js`. */
  entries: Record<string, StaticEntry>;
};
