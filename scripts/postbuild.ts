// Runs after `react-router build`: cuts each prerendered page's inline stylesheet to the rules it can
// use (scripts/lib/page-css.ts), compresses every text file once (brotli and gzip), computes the CSP
// hashes of each prerendered page's inline scripts, and writes build/static-manifest.json so the
// server sends static files from memory without compressing or inspecting them per request.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { deckFileName } from "../app/features/investor-deck/deck-content.ts";
import { site } from "../app/lib/site/site.ts";
import { IMMUTABLE, REVALIDATE, SHORT } from "../server/cache-control.ts";
import { withPageCss } from "../server/page-css.ts";
import { inlineScriptHashes } from "../server/page-javascript.ts";
import {
  type Encoding,
  STATIC_MANIFEST_FILE,
  type StaticEntry,
  type StaticManifest,
} from "../server/static-manifest.ts";
import type { SizeCache } from "./lib/page-weight.ts";

const buildDir = join(import.meta.dirname, "..", "build");
const clientDir = join(buildDir, "client");

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".woff2": "font/woff2",
  ".pdf": "application/pdf",
  // React Router's single-fetch payloads for client-side navigation to prerendered pages.
  ".data": "text/x-script",
};

/** Prerendered resource routes whose URL has no telling extension. */
const RESOURCE_FILES: Record<string, { contentType: string; headers?: Record<string, string> }> = {
  "/investor-deck-pdf": {
    contentType: "application/pdf",
    headers: {
      // Same header as the resource route; prerendering keeps only the body, so it is restated here.
      "Content-Disposition": `inline; filename="${deckFileName}"`,
    },
  },
  "/sitemap.xml": { contentType: "application/xml; charset=utf-8" },
  "/rss.xml": { contentType: "application/rss+xml; charset=utf-8" },
};

const COMPRESSIBLE = /^(text\/|application\/(json|xml|rss\+xml|manifest\+json|pdf)|image\/(svg\+xml|x-icon))/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function extensionOf(file: string): string {
  const match = /\.[a-z0-9]+$/i.exec(file);
  return match ? match[0].toLowerCase() : "";
}

/** `problem/index.html` → `/problem`, `index.html` → `/`, other files keep their path. */
export function urlPathFor(relativeFile: string): string {
  const posix = relativeFile.split(sep).join("/");
  if (posix === "index.html") return "/";
  if (posix.endsWith("/index.html")) return `/${posix.slice(0, -"/index.html".length)}`;
  return `/${posix}`;
}

function cacheControlFor(urlPath: string, contentType: string): string {
  if (urlPath.startsWith("/assets/")) return IMMUTABLE;
  if (contentType.startsWith("text/html") || urlPath.endsWith(".data")) return REVALIDATE;
  return SHORT;
}

function compress(file: string, body: Buffer, contentType: string): Encoding[] {
  if (!COMPRESSIBLE.test(contentType) || body.length < 512) return [];
  const encodings: Encoding[] = [];
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  // Keep a variant only when it saves at least 5%; otherwise the plain bytes are as good.
  if (br.length < body.length * 0.95) {
    writeFileSync(`${file}.br`, br);
    encodings.push("br");
  }
  const gz = gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
  if (gz.length < body.length * 0.95) {
    writeFileSync(`${file}.gz`, gz);
    encodings.push("gzip");
  }
  return encodings;
}

/** Every prerendered HTML page with its inline stylesheet cut to its own rules; prints the bytes saved. */
function cutPageStylesheets(): void {
  const cache: SizeCache = new Map();
  let before = 0;
  let after = 0;
  for (const path of walk(clientDir)) {
    if (extensionOf(path) !== ".html") continue;
    const html = readFileSync(path, "utf8");
    const cut = withPageCss(html, urlPathFor(relative(clientDir, path)), clientDir, cache);
    before += html.length;
    after += cut.length;
    if (cut !== html) writeFileSync(path, cut);
  }
  console.log(
    `postbuild: page stylesheets cut, HTML ${(before / 1024).toFixed(1)} KB → ${(after / 1024).toFixed(1)} KB raw`,
  );
}

function main() {
  cutPageStylesheets();
  // Vite read .env for the pages; read it here too so the manifest records the same PUBLIC_URL.
  if (existsSync(".env")) process.loadEnvFile(".env");
  const entries: Record<string, StaticEntry> = {};
  let rawBytes = 0;
  let brBytes = 0;
  for (const path of walk(clientDir)) {
    if (/\.(br|gz|map)$/.test(path)) continue;
    const rel = relative(clientDir, path);
    const urlPath = urlPathFor(rel);
    const resource = RESOURCE_FILES[urlPath];
    const contentType =
      resource?.contentType ?? CONTENT_TYPES[extensionOf(path)] ?? "application/octet-stream";
    const body = readFileSync(path);
    const entry: StaticEntry = {
      file: rel.split(sep).join("/"),
      contentType,
      cacheControl: cacheControlFor(urlPath, contentType),
      etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`,
      encodings: compress(path, body, contentType),
    };
    if (contentType.startsWith("text/html")) entry.scriptHashes = inlineScriptHashes(body.toString("utf8"));
    if (resource?.headers) entry.headers = resource.headers;
    entries[urlPath] = entry;
    rawBytes += body.length;
    brBytes += entry.encodings.includes("br") ? statSync(`${path}.br`).size : body.length;
  }
  // Same rule as app/lib/site/public-url.ts, which Vite compiled into the pages.
  const publicUrl = (process.env.PUBLIC_URL || site.defaultPublicUrl).replace(/\/+$/, "");
  const manifest: StaticManifest = { publicUrl, entries };
  writeFileSync(join(buildDir, STATIC_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(
    `postbuild: ${Object.keys(entries).length} static files, ${kb(rawBytes)} raw, ${kb(brBytes)} with brotli`,
  );
}

// Run as `node scripts/postbuild.ts`, or by scripts/require-node.cjs (`npm run build`), which imports
// it with process.argv[1] set to it: import.meta.main is false there. Imported by its test: neither.
if (import.meta.main || (process.argv[1] && resolve(process.argv[1]) === import.meta.filename)) main();
