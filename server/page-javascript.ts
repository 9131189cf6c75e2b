// How much JavaScript a page makes the browser download before the visitor interacts with it, and
// what it loads later, measured one way everywhere (issue 11):
// - counted: every external script (`<script src>`) and `<link rel="modulepreload">`, followed
//   recursively through their static imports (`import … from`, `export … from`, `import "…"`); the
//   body of every executable inline script (JSON-LD and other data blocks are not scripts), and what
//   an inline module script imports, statically or with `import()` (its top level runs at load, as
//   React Router's hydration script does);
// - lazy, reported apart and not counted: what a script file loads with `import()`, followed the same
//   way (zod on a form's first focus, the toast view with the first toast), minus what is counted.
// Sizes are gzip level 9 (the budget's unit) and brotli quality 11, per file. Used by the page CSS
// cut (page-css.ts: at build time for prerendered pages, at run time for the studio's pages),
// scripts/page-weight.ts, scripts/lighthouse.ts and the budget test.
// NOTE: it reads files synchronously. Callers are the build, the measuring scripts and the page CSS
// worker thread (page-css-thread.ts); no request of the server runs it on the event loop.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join, normalize, sep } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { initSync, parse } from "es-module-lexer";

export type Sizes = { bytes: number; gzip: number; brotli: number };

export type ScriptSize = Sizes & {
  /** URL path, e.g. `/assets/root-abc123.js` (imports resolved against their importer). */
  url: string;
  /** Absolute path of the built file. */
  file: string;
};

export type InlineScriptSize = Sizes & {
  /** The script's first characters, to tell which one it is. */
  preview: string;
};

export type PageJavaScript = Sizes & {
  /** Script files downloaded before interaction, in the order they are found. */
  files: ScriptSize[];
  /** Executable inline scripts. */
  inline: InlineScriptSize[];
  /** Script files loaded later with `import()`: not in the totals. */
  lazy: ScriptSize[];
  lazyGzip: number;
  /** Script URLs the page refers to whose file is not in the client build. */
  missing: string[];
  /** Scripts from another origin: named, not measured. */
  external: string[];
};

/** Optional memo of measured files and their imports, shared across pages: each file is read once. */
export type SizeCache = Map<string, ModuleInfo>;

type ModuleInfo = Sizes & { file: string; staticImports: string[]; dynamicImports: string[] };

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

const EXECUTABLE_TYPES = new Set(["", "module", "text/javascript", "application/javascript"]);

type HtmlScripts = {
  /** `<script src>` and modulepreload hrefs, in document order, each once. */
  urls: string[];
  inline: { body: string; module: boolean }[];
};

/** The scripts an HTML document refers to or carries (without following any import). */
export function scriptsInHtml(html: string): HtmlScripts {
  const found: { index: number; url: string }[] = [];
  const inline: HtmlScripts["inline"] = [];
  for (const match of html.matchAll(/<link\b([^>]*)>/gi)) {
    const attributes = attributesOf(match[1] ?? "");
    const rel = (attributes.get("rel") ?? "").toLowerCase().split(/\s+/);
    const href = attributes.get("href");
    if (href && rel.includes("modulepreload")) found.push({ index: match.index, url: href });
  }
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = attributesOf(match[1] ?? "");
    const type = (attributes.get("type") ?? "").trim().toLowerCase();
    if (!EXECUTABLE_TYPES.has(type)) continue; // JSON-LD, JSON data, templates: never executed
    const src = attributes.get("src");
    if (src !== undefined) {
      found.push({ index: match.index, url: src });
      continue;
    }
    const body = match[2] ?? "";
    if (body.trim()) inline.push({ body, module: type === "module" });
  }
  found.sort((a, b) => a.index - b.index);
  return { urls: [...new Set(found.map((entry) => entry.url.trim()).filter(Boolean))], inline };
}

/** Resolves `specifier` against `base` (a URL path); undefined for other origins and bare names. */
function resolveUrl(specifier: string, base: string): string | undefined {
  if (!/^(\.{1,2}\/|\/(?!\/))/.test(specifier)) return undefined;
  const url = new URL(specifier, new URL(base, "http://page.invalid"));
  return url.origin === "http://page.invalid" ? url.pathname : undefined;
}

/** `/assets/x.js` → `<clientDir>/assets/x.js`; undefined for paths outside clientDir. */
function localFileFor(urlPath: string, clientDir: string): string | undefined {
  const root = normalize(clientDir);
  const file = normalize(join(root, decodeURIComponent(urlPath)));
  return file.startsWith(root + sep) ? file : undefined;
}

function sizesOf(body: Buffer): Sizes {
  return {
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

/** The module's imports: static ones (always fetched with it) and literal `import()` specifiers. */
function importsOf(source: string): { staticImports: string[]; dynamicImports: string[] } {
  initSync();
  const [imports] = parse(source);
  const staticImports: string[] = [];
  const dynamicImports: string[] = [];
  for (const entry of imports) {
    if (entry.n === undefined) continue; // import.meta, or import() of a computed name
    if (entry.d === -1) staticImports.push(entry.n);
    else if (entry.d >= 0) dynamicImports.push(entry.n);
  }
  return { staticImports, dynamicImports };
}

function moduleInfo(file: string, cache: SizeCache): ModuleInfo {
  let info = cache.get(file);
  if (!info) {
    const body = readFileSync(file);
    let imports = { staticImports: [] as string[], dynamicImports: [] as string[] };
    try {
      imports = importsOf(body.toString("utf8"));
    } catch {
      // Not a module (a classic script): it imports nothing statically.
    }
    info = { file, ...sizesOf(body), ...imports };
    cache.set(file, info);
  }
  return info;
}

/**
 * The JavaScript of a page (see the top of this file), measured from `clientDir` (build/client).
 * `pagePath` resolves relative script URLs; pass a shared `cache` when measuring many pages.
 */
export function javascriptForPage(
  html: string,
  clientDir: string,
  cache: SizeCache = new Map(),
  pagePath = "/",
): PageJavaScript {
  const result: PageJavaScript = {
    files: [],
    inline: [],
    lazy: [],
    missing: [],
    external: [],
    bytes: 0,
    gzip: 0,
    brotli: 0,
    lazyGzip: 0,
  };
  const counted = new Set<string>();
  const lazyQueue: string[] = [];

  /** Adds the module at `url` and, recursively, its static imports; queues its import()s. */
  const visit = (url: string, into: ScriptSize[], seen: Set<string>, onDynamic: (url: string) => void) => {
    const stack = [url];
    while (stack.length > 0) {
      const current = stack.shift() as string;
      if (seen.has(current)) continue;
      seen.add(current);
      const file = localFileFor(current, clientDir);
      if (!file || !existsSync(file)) {
        if (!result.missing.includes(current)) result.missing.push(current);
        continue;
      }
      const info = moduleInfo(file, cache);
      into.push({ url: current, file, bytes: info.bytes, gzip: info.gzip, brotli: info.brotli });
      for (const specifier of info.staticImports) {
        const imported = resolveUrl(specifier, current);
        if (imported) stack.push(imported);
        else if (!result.external.includes(specifier)) result.external.push(specifier);
      }
      for (const specifier of info.dynamicImports) {
        const imported = resolveUrl(specifier, current);
        if (imported) onDynamic(imported);
      }
    }
  };
  const queueLazy = (url: string) => lazyQueue.push(url);

  const { urls, inline } = scriptsInHtml(html);
  for (const src of urls) {
    const url = resolveUrl(src.split(/[?#]/)[0] ?? "", pagePath);
    if (!url) {
      result.external.push(src);
      continue;
    }
    visit(url, result.files, counted, queueLazy);
  }
  for (const script of inline) {
    result.inline.push({ preview: script.body.trim().slice(0, 60), ...sizesOf(Buffer.from(script.body)) });
    if (!script.module) continue;
    const { staticImports, dynamicImports } = importsOf(script.body);
    for (const specifier of [...staticImports, ...dynamicImports]) {
      const url = resolveUrl(specifier, pagePath);
      if (url) visit(url, result.files, counted, queueLazy);
      else result.external.push(specifier);
    }
  }
  // What is loaded later and not already counted, each file once.
  const lazySeen = new Set(counted);
  for (const url of lazyQueue) visit(url, result.lazy, lazySeen, queueLazy);

  for (const part of [...result.files, ...result.inline]) {
    result.bytes += part.bytes;
    result.gzip += part.gzip;
    result.brotli += part.brotli;
  }
  result.lazyGzip = result.lazy.reduce((sum, file) => sum + file.gzip, 0);
  return result;
}

/** SHA-256 CSP hashes of the inline executable scripts of an HTML document. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? "";
    const body = match[2] ?? "";
    if (/\ssrc=/i.test(attributes) || body.length === 0) continue;
    // JSON-LD and other data blocks never execute, so CSP does not apply to them.
    const type = /\stype=["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== "module" && type !== "text/javascript" && type !== "application/javascript")
      continue;
    hashes.add(`sha256-${createHash("sha256").update(body, "utf8").digest("base64")}`);
  }
  return [...hashes];
}
