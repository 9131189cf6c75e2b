// Chromium's HSTS preload list, kept in the database so every app instance sharing it sees the same
// copy. `npm run audit:update-hsts-preload` downloads and stores it (an operator's step, like a
// migration: the server itself downloads nothing); each audit then reads the few rows it needs.
// ADR 007 says why it lives here rather than in a file or behind a live lookup.

import { readFile, stat } from "node:fs/promises";
import { type Kysely, sql } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import {
  type HstsPreloadEntry,
  type HstsPreloadSnapshot,
  normaliseHostname,
  preloadCandidates,
} from "./observatory/hsts-preload.ts";
import {
  type Connector,
  isFetchFailure,
  type Resolver,
  type SafeFetchOptions,
  safeFetch,
} from "./safe-fetch.server.ts";

/** Where the HTTP Observatory takes the list from: Chromium's source tree. */
export const CHROMIUM_PRELOAD_LIST_URL =
  "https://raw.githubusercontent.com/chromium/chromium/main/net/http/transport_security_state_static.json";

/** The list is about 15 MB today; this leaves room to grow while refusing something absurd. */
const MAX_LIST_BYTES = 128 * 1024 * 1024;
export const HSTS_PRELOAD_SETTINGS_KEY = "hsts_preload_list";
// Two parameters a row; both databases take 2,000 in one statement comfortably.
const INSERT_BATCH = 1000;

export type HstsPreloadListInfo = { source: string; retrievedAt: string; count: number };

// A host name as the list writes it (ASCII, punycode for IDNs); anything else is skipped.
const LIST_NAME = /^[a-z0-9_][a-z0-9_-]{0,62}(?:\.[a-z0-9_][a-z0-9_-]{0,62})*$/;

export class PreloadListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PreloadListError";
  }
}

/**
 * Reads Chromium's `net/http/transport_security_state_static.json` (JSON with `//` comment lines;
 * the base64 that googlesource's `?format=TEXT` serves is accepted too) and keeps the entries whose
 * mode is force-https, as the reference does.
 */
export function parseChromiumPreloadList(text: string): HstsPreloadEntry[] {
  let source = text.replace(/^\uFEFF/, "").trim();
  // Base64 has no braces; any JSON object has one.
  if (!source.includes("{") && /^[A-Za-z0-9+/=\s]+$/.test(source)) {
    source = Buffer.from(source, "base64").toString("utf8").trim();
  }
  // Comments fill whole lines in Chromium's file; dropping only those lines leaves strings alone.
  const json = source
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("//"))
    .join("\n");
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    throw new PreloadListError(`The preload list is not valid JSON (${(error as Error).message}).`);
  }
  const entries = (data as { entries?: unknown } | null)?.entries;
  if (!Array.isArray(entries))
    throw new PreloadListError('The preload list has no "entries" array: is it Chromium\'s file?');
  const byName = new Map<string, boolean>();
  for (const entry of entries) {
    if (typeof entry !== "object" || entry === null) continue;
    const { name, mode, include_subdomains } = entry as Record<string, unknown>;
    if (typeof name !== "string" || mode !== "force-https") continue;
    const host = normaliseHostname(name);
    if (host.length > 253 || !LIST_NAME.test(host)) continue;
    byName.set(host, include_subdomains === true);
  }
  if (byName.size === 0)
    throw new PreloadListError('The preload list has no "force-https" entries: is it Chromium\'s file?');
  return [...byName].map(([name, includeSubdomains]) => ({ name, includeSubdomains }));
}

/** How the download reaches the network: the system's, or (tests) an injected resolver and connector. */
export type PreloadDownloadOptions = {
  timeoutMs?: number;
  resolve?: Resolver;
  connect?: Connector;
  /** Extra trusted certificate authorities (tests). */
  ca?: SafeFetchOptions["ca"];
};

/**
 * The list's text from an http(s) URL or a local file, refusing anything over MAX_LIST_BYTES. The
 * download goes through the audits' guarded fetcher, so it obeys the one outbound policy (ADR 006):
 * any address the operator points it at, but never a cloud metadata one, on any hop of a redirect.
 * Unlike an audit, an https certificate must be valid on every hop: the list decides grades.
 */
export async function readPreloadListSource(
  from: string,
  { timeoutMs = 120_000, resolve, connect, ca }: PreloadDownloadOptions = {},
): Promise<string> {
  if (!/^https?:\/\//i.test(from)) {
    const { size } = await stat(from);
    if (size > MAX_LIST_BYTES) throw new PreloadListError(`${from} is larger than ${MAX_LIST_BYTES} bytes.`);
    return readFile(from, "utf8");
  }
  const result = await safeFetch(from, {
    // The operator's own choice of URL (a mirror on the intranet is fine); cloud metadata is refused
    // whatever this says.
    allowPrivate: true,
    timeoutMs,
    maxBodyBytes: MAX_LIST_BYTES,
    resolve,
    connect,
    ca,
    headers: { accept: "application/json,text/plain;q=0.9,*/*;q=0.8" },
  });
  if (isFetchFailure(result)) {
    const reason = result.details.replace(/\.$/, "");
    throw new PreloadListError(
      result.error === "Refused"
        ? `Could not download ${from}: ${result.details}`
        : `Could not download ${from} (${reason}). Without a route to it, download the file elsewhere and pass it with --from <file>.`,
    );
  }
  const untrusted = result.hops.find((hop) => hop.tls && !hop.tls.authorized);
  if (untrusted)
    throw new PreloadListError(
      `${untrusted.url} has a certificate that is not trusted (${untrusted.tls?.authorizationError ?? "unknown"}).`,
    );
  const { final } = result;
  if (final.status < 200 || final.status > 299)
    throw new PreloadListError(`${from} answered HTTP ${final.status}.`);
  if (final.bodyTruncated) throw new PreloadListError(`${from} sent more than ${MAX_LIST_BYTES} bytes.`);
  return final.body;
}

/** Replaces the stored list in one transaction: audits see the old list or the new one, never half. */
export async function replaceHstsPreloadList(
  db: Kysely<Database>,
  entries: readonly HstsPreloadEntry[],
  info: Omit<HstsPreloadListInfo, "count">,
): Promise<HstsPreloadListInfo> {
  const stored: HstsPreloadListInfo = { ...info, count: entries.length };
  await db.transaction().execute(async (trx) => {
    // Two updates at once: the second waits here for the first instead of failing on a duplicate
    // key (SQLite serialises writing transactions by itself).
    if (isPostgres(trx)) await sql`lock table hsts_preload in exclusive mode`.execute(trx);
    await trx.deleteFrom("hstsPreload").execute();
    for (let start = 0; start < entries.length; start += INSERT_BATCH) {
      const rows = entries
        .slice(start, start + INSERT_BATCH)
        .map((entry) => ({ name: entry.name, includeSubdomains: entry.includeSubdomains ? 1 : 0 }));
      await trx.insertInto("hstsPreload").values(rows).execute();
    }
    await trx
      .insertInto("appSettings")
      .values({ key: HSTS_PRELOAD_SETTINGS_KEY, value: JSON.stringify(stored) })
      .onConflict((conflict) => conflict.column("key").doUpdateSet({ value: JSON.stringify(stored) }))
      .execute();
  });
  return stored;
}

/** Which list is stored, or null when `npm run audit:update-hsts-preload` has never run. */
export async function hstsPreloadListInfo(db: Kysely<Database>): Promise<HstsPreloadListInfo | null> {
  const row = await db
    .selectFrom("appSettings")
    .select("value")
    .where("key", "=", HSTS_PRELOAD_SETTINGS_KEY)
    .executeTakeFirst();
  return row ? (JSON.parse(row.value) as HstsPreloadListInfo) : null;
}

/** The part of the list an audit of `hostnames` needs (each host and its parents), or null without a list. */
export async function hstsPreloadFor(
  db: Kysely<Database>,
  hostnames: readonly string[],
): Promise<HstsPreloadSnapshot | null> {
  const info = await hstsPreloadListInfo(db);
  if (!info) return null;
  const names = [...new Set(hostnames.flatMap(preloadCandidates))];
  const rows =
    names.length === 0
      ? []
      : await db
          .selectFrom("hstsPreload")
          .select(["name", "includeSubdomains"])
          .where("name", "in", names)
          .execute();
  return {
    source: info.source,
    retrievedAt: info.retrievedAt,
    entries: new Map(rows.map((row) => [row.name, Number(row.includeSubdomains) === 1])),
  };
}

/** Downloads (or reads), checks and stores the list; what `npm run audit:update-hsts-preload` does. */
export async function updateHstsPreloadList(
  db: Kysely<Database>,
  from: string = CHROMIUM_PRELOAD_LIST_URL,
  now: Date = new Date(),
  download: PreloadDownloadOptions = {},
): Promise<HstsPreloadListInfo & { withSubdomains: number }> {
  const entries = parseChromiumPreloadList(await readPreloadListSource(from, download));
  const info = await replaceHstsPreloadList(db, entries, { source: from, retrievedAt: now.toISOString() });
  return { ...info, withSubdomains: entries.filter((entry) => entry.includeSubdomains).length };
}
