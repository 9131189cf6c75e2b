import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { contentSecurityPolicy } from "./security-headers.ts";
import {
  type Encoding,
  STATIC_MANIFEST_FILE,
  type StaticEntry,
  type StaticManifest,
} from "./static-manifest.ts";

// Headers as a flat [name, value, name, value, …] array: Node writes it without re-reading an object.
type Variant = { body: Buffer; headers: string[]; notModifiedHeaders: string[] };
/** A file with every response prepared: its bodies (plain and precompressed) and their headers. */
export type PreparedFile = { etag: string; html: boolean; identity: Variant; br?: Variant; gzip?: Variant };
type LoadedFile = PreparedFile;

const SUBMITTED_QUERY = /[?&]submitted=/;

/** A Set-Cookie value to add to this page response, or undefined (server.ts: the form time token). */
export type PageCookie = (req: IncomingMessage) => string | undefined;

/**
 * Every prerendered page and built asset, read once at start-up with its response headers already
 * assembled, so a request costs a map lookup and a socket write (no compression, no disk).
 */
export class StaticFiles {
  readonly #files = new Map<string, LoadedFile>();
  /** The public origin the pages were built with. */
  readonly publicUrl: string;

  readonly #pageCookie: PageCookie | undefined;

  constructor(
    buildDir: string,
    baseHeaders: Record<string, string>,
    https: boolean,
    pageCookie?: PageCookie,
  ) {
    this.#pageCookie = pageCookie;
    const manifest = JSON.parse(readFileSync(join(buildDir, STATIC_MANIFEST_FILE), "utf8")) as StaticManifest;
    this.publicUrl = manifest.publicUrl;
    const clientDir = join(buildDir, "client");
    for (const [urlPath, entry] of Object.entries(manifest.entries)) {
      this.#files.set(urlPath, loadFile(clientDir, entry, baseHeaders, https));
    }
  }

  get size(): number {
    return this.#files.size;
  }

  /**
   * Sends the file for this request and returns true, or returns false when it is not static.
   * `extraHeaders` (a flat name, value list: the request id) go out with it. They are passed here
   * rather than set on `res` beforehand: a header set before writeHead makes Node merge the whole
   * prepared list header by header, a fifth of a page's CPU (docs/performance.md).
   * `onPage` is called when the file sent (or confirmed unchanged, 304) is an HTML page.
   */
  serve(
    req: IncomingMessage,
    res: ServerResponse,
    extraHeaders: readonly string[] = [],
    onPage?: () => void,
  ): boolean {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = req.url ?? "/";
    const queryStart = url.indexOf("?");
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    const file = this.#files.get(path);
    if (!file) return false;
    // After a form is sent without JavaScript the visitor lands on `?submitted=…`: the server renders
    // that page with its success message instead of the prerendered copy.
    if (file.html && queryStart !== -1 && SUBMITTED_QUERY.test(url.slice(queryStart))) return false;

    sendPrepared(req, res, file, extraHeaders, this.#pageCookie, onPage);
    return true;
  }
}

/** Reads a file and its precompressed siblings at start-up (the constructor), never per request. */
function loadFile(
  clientDir: string,
  entry: StaticEntry,
  baseHeaders: Record<string, string>,
  https: boolean,
): LoadedFile {
  const path = join(clientDir, entry.file);
  return prepareFile(
    entry,
    {
      identity: readFileSync(path),
      br: entry.encodings.includes("br") ? readFileSync(`${path}.br`) : undefined,
      gzip: entry.encodings.includes("gzip") ? readFileSync(`${path}.gz`) : undefined,
    },
    baseHeaders,
    https,
  );
}

/**
 * A file's responses with their headers assembled once: the build's files (above) and the pages the
 * server renders from the published posts (published-pages.ts) alike.
 */
export function prepareFile(
  entry: Pick<StaticEntry, "contentType" | "cacheControl" | "etag" | "scriptHashes" | "headers">,
  bodies: { identity: Buffer; br?: Buffer; gzip?: Buffer },
  baseHeaders: Record<string, string>,
  https: boolean,
): PreparedFile {
  const common: Record<string, string> = {
    ...baseHeaders,
    "Content-Type": entry.contentType,
    "Cache-Control": entry.cacheControl,
    ETag: entry.etag,
    ...entry.headers,
  };
  if (entry.contentType.startsWith("text/html")) {
    common["Content-Security-Policy"] = contentSecurityPolicy({ hashes: entry.scriptHashes ?? [] }, https);
  }
  if (bodies.br || bodies.gzip) common.Vary = "Accept-Encoding";
  const variant = (body: Buffer, encoding?: Encoding): Variant => {
    const headers = { ...common, ...(encoding ? { "Content-Encoding": encoding } : {}) };
    return {
      body,
      headers: Object.entries({ ...headers, "Content-Length": String(body.length) }).flat(),
      notModifiedHeaders: Object.entries(headers).flat(),
    };
  };
  const file: PreparedFile = {
    etag: entry.etag,
    html: entry.contentType.startsWith("text/html"),
    identity: variant(bodies.identity),
  };
  if (bodies.br) file.br = variant(bodies.br, "br");
  if (bodies.gzip) file.gzip = variant(bodies.gzip, "gzip");
  return file;
}

/** Writes a prepared file (or 304 when the browser has it), with `extraHeaders` and the page cookie. */
export function sendPrepared(
  req: IncomingMessage,
  res: ServerResponse,
  file: PreparedFile,
  extraHeaders: readonly string[],
  pageCookie: PageCookie | undefined,
  onPage: (() => void) | undefined,
): void {
  const variant = pickVariant(file, req.headers["accept-encoding"]);
  const cookie = file.html ? pageCookie?.(req) : undefined;
  const extra = cookie ? [...extraHeaders, "Set-Cookie", cookie] : extraHeaders;
  if (req.headers["if-none-match"] === file.etag) {
    res.writeHead(
      304,
      extra.length > 0 ? [...variant.notModifiedHeaders, ...extra] : variant.notModifiedHeaders,
    );
    res.end();
    if (file.html) onPage?.();
    return;
  }
  res.writeHead(200, extra.length > 0 ? [...variant.headers, ...extra] : variant.headers);
  res.end(req.method === "HEAD" ? undefined : variant.body);
  if (file.html) onPage?.();
}

const acceptedEncodings = new Map<string, ReadonlySet<string>>();

/** Prefers brotli, then gzip, honouring `q=0` refusals in Accept-Encoding. */
export function pickVariant(file: LoadedFile, acceptEncoding: string | string[] | undefined): Variant {
  if (!acceptEncoding || (!file.br && !file.gzip)) return file.identity;
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(",") : acceptEncoding;
  let accepted = acceptedEncodings.get(header);
  if (accepted === undefined) {
    accepted = parseAcceptEncoding(header);
    // Browsers send a handful of distinct values: parsed once each (bounded against invented ones).
    if (acceptedEncodings.size >= 256) acceptedEncodings.clear();
    acceptedEncodings.set(header, accepted);
  }
  if (file.br && accepted.has("br")) return file.br;
  if (file.gzip && accepted.has("gzip")) return file.gzip;
  return file.identity;
}

export function parseAcceptEncoding(header: string): Set<string> {
  const accepted = new Set<string>();
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q && Number(q.slice(2)) <= 0) continue;
    if (name === "*") {
      accepted.add("br");
      accepted.add("gzip");
    } else if (name) accepted.add(name);
  }
  return accepted;
}
