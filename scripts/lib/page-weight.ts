// How much JavaScript a prerendered page makes the browser download: every script its HTML refers to
// (modulepreload links, <script src>, and the static or dynamic imports of inline module scripts),
// de-duplicated and measured from the built files with gzip level 9 and brotli quality 11.
// Used by scripts/page-weight.ts (fast, build only) and scripts/lighthouse.ts.
import { existsSync, readFileSync } from "node:fs";
import { join, normalize, sep } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { listBlogSlugs, staticPublicPaths } from "../../app/features/content/public-paths.ts";

/** Each page's budget in the performance issue: at most 100 KB of gzipped JavaScript. */
export const JS_BUDGET_GZIP_BYTES = 100 * 1024;

export type ScriptSize = {
  /** URL path as written in the HTML, e.g. `/assets/root-abc123.js`. */
  url: string;
  /** Absolute path of the built file. */
  file: string;
  bytes: number;
  gzip: number;
  brotli: number;
};

export type PageJavaScript = {
  files: ScriptSize[];
  /** Script URLs the page refers to whose file is not in the client build. */
  missing: string[];
  /** Scripts from another origin: named, not measured. */
  external: string[];
  bytes: number;
  gzip: number;
  brotli: number;
};

/** Optional memo of measured files, shared across pages so a common chunk is compressed once. */
export type SizeCache = Map<string, Omit<ScriptSize, "url">>;

const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function attributesOf(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = match[1]?.toLowerCase();
    if (!name || attributes.has(name)) continue;
    const value = match[2] ?? match[3] ?? match[4] ?? "";
    attributes.set(name, value.replaceAll("&amp;", "&").replaceAll("&#x2F;", "/").replaceAll("&quot;", '"'));
  }
  return attributes;
}

const IMPORT_SPECIFIERS = [
  /\bimport\s*\(\s*(["'])([^"']+)\1\s*\)/g, // import("/assets/x.js")
  /\bimport\s*(["'])([^"']+)\1/g, // import "/assets/x.js"
  /\bfrom\s*(["'])([^"']+)\1/g, // import * as x from "/assets/x.js", export … from
];

/**
 * Script URLs of an HTML document in document order, de-duplicated: `<link rel="modulepreload">`
 * hrefs, `<script src>`, and module specifiers imported by inline `<script type="module">` bodies.
 */
export function scriptUrlsInHtml(html: string): string[] {
  const found: { index: number; url: string }[] = [];
  for (const match of html.matchAll(/<link\b([^>]*)>/gi)) {
    const attributes = attributesOf(match[1] ?? "");
    const rel = (attributes.get("rel") ?? "").toLowerCase().split(/\s+/);
    const href = attributes.get("href");
    if (href && rel.includes("modulepreload")) found.push({ index: match.index, url: href });
  }
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = attributesOf(match[1] ?? "");
    const src = attributes.get("src");
    if (src) {
      found.push({ index: match.index, url: src });
      continue;
    }
    if ((attributes.get("type") ?? "").toLowerCase() !== "module") continue;
    const body = match[2] ?? "";
    const specifiers: { index: number; url: string }[] = [];
    for (const pattern of IMPORT_SPECIFIERS) {
      for (const imported of body.matchAll(pattern)) {
        if (imported[2]) specifiers.push({ index: match.index + imported.index, url: imported[2] });
      }
    }
    found.push(...specifiers);
  }
  found.sort((a, b) => a.index - b.index);
  return [...new Set(found.map((entry) => entry.url.trim()).filter(Boolean))];
}

/** `/assets/x.js?v=1` → `<clientDir>/assets/x.js`; undefined for other origins or paths outside clientDir. */
function localFileFor(url: string, clientDir: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith("//")) return undefined;
  const path = url.split(/[?#]/)[0] ?? "";
  const decoded = decodeURIComponent(path.startsWith("/") ? path : `/${path}`);
  const root = normalize(clientDir);
  const file = normalize(join(root, decoded));
  return file.startsWith(root + sep) ? file : undefined;
}

function measure(file: string): Omit<ScriptSize, "url"> {
  const body = readFileSync(file);
  return {
    file,
    bytes: body.length,
    gzip: gzipSync(body, { level: 9 }).length,
    brotli: brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }).length,
  };
}

/**
 * The JavaScript a page ships: every script its HTML refers to, measured from `clientDir`
 * (build/client). Pass a shared `cache` when measuring many pages.
 */
export function javascriptForPage(
  html: string,
  clientDir: string,
  cache: SizeCache = new Map(),
): PageJavaScript {
  const result: PageJavaScript = { files: [], missing: [], external: [], bytes: 0, gzip: 0, brotli: 0 };
  const seen = new Set<string>();
  for (const url of scriptUrlsInHtml(html)) {
    const file = localFileFor(url, clientDir);
    if (!file) {
      result.external.push(url);
      continue;
    }
    if (seen.has(file)) continue;
    seen.add(file);
    if (!existsSync(file)) {
      result.missing.push(url);
      continue;
    }
    let size = cache.get(file);
    if (!size) {
      size = measure(file);
      cache.set(file, size);
    }
    result.files.push({ url, ...size });
    result.bytes += size.bytes;
    result.gzip += size.gzip;
    result.brotli += size.brotli;
  }
  return result;
}

/** Every prerendered public page: the fixed pages plus `/blog/<slug>` for each published article. */
export function publicPages(rootDir: string): string[] {
  const slugs = listBlogSlugs(join(rootDir, "content", "blog"));
  return [...staticPublicPaths, ...slugs.map((slug) => `/blog/${slug}`)];
}

/** The prerendered HTML file of a page: `/` → index.html, `/problem` → problem/index.html. */
export function htmlFileForPage(clientDir: string, pagePath: string): string {
  const trimmed = pagePath.replace(/^\/+|\/+$/g, "");
  return trimmed ? join(clientDir, ...trimmed.split("/"), "index.html") : join(clientDir, "index.html");
}

/** Bytes → `12.3` (KiB, one decimal), the unit of every table the scripts print. */
export function kb(bytes: number): string {
  return (bytes / 1024).toFixed(1);
}
