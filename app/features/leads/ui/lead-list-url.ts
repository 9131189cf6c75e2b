// The dashboard's state lives in its URL (filters, sort, page size, page), so a view can be
// bookmarked, shared and reloaded, and every control works as a plain link or GET form without
// JavaScript. Shared by the loader (server) and the page (browser); no server imports.

export const PAGE_SIZES = [10, 25, 50, 100] as const;
/** SPEC section 9. */
export const DEFAULT_PAGE_SIZE = 10;

export type ListView = {
  status?: string;
  q?: string;
  spam?: "exclude" | "only" | "include";
  /** "me", "none" or a staff member's id, as in the URL. */
  owner?: string;
  type?: "demo" | "investor";
  from?: string;
  to?: string;
  /** A channel as in the URL (`email`, `organic-search`…; app/lib/attribution.ts). */
  channel?: string;
  /** A utm_campaign, exactly. */
  campaign?: string;
  sort?: "createdAt" | "fullName" | "company" | "status" | "nextStep";
  order?: "asc" | "desc";
  pageSize?: number;
};

/** The parameters that choose which leads a list holds (sorting and paging do not). */
export const FILTER_KEYS = [
  "status",
  "q",
  "spam",
  "owner",
  "type",
  "from",
  "to",
  "channel",
  "campaign",
] as const;

const KEYS = [...FILTER_KEYS, "sort", "order"] as const;

/** The view's query parameters, leaving out defaults so URLs stay short. */
export function viewParams(view: ListView): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = view[key];
    if (value === undefined || value === "") continue;
    if (key === "spam" && value === "exclude") continue;
    if (key === "sort" && value === "createdAt") continue;
    params.set(key, String(value));
  }
  if (view.pageSize && view.pageSize !== DEFAULT_PAGE_SIZE) params.set("pageSize", String(view.pageSize));
  return params;
}

export function listHref(base: string, view: ListView, page = 1): string {
  const params = viewParams(view);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}

/** The order a column header's link sets: the other direction when it is the current sort. */
export function sortToggle(view: ListView, sort: NonNullable<ListView["sort"]>): ListView {
  const current = view.sort ?? "createdAt";
  const defaultOrder = sort === "createdAt" ? "desc" : "asc";
  const currentOrder = view.order ?? (current === "createdAt" ? "desc" : "asc");
  if (current !== sort) return { ...view, sort, order: defaultOrder };
  return { ...view, sort, order: currentOrder === "asc" ? "desc" : "asc" };
}

/** "2 h 5 min", "3 days 4 h", "45 s": a duration as staff read it. */
export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} days ${hours % 24} h` : `${days} days`;
}

/**
 * Issue 35: a lead opened from a list carries the list it came from (its path and query, page
 * included) and its place in it, so its page offers the previous and next lead of that list and a
 * way back to it. Only the back office's lead list is accepted as a place to go back to.
 */
export const FROM_PARAM = "from";
export const AT_PARAM = "at";
export const LIST_PATHS = ["/admin/dashboard"] as const;
const MAX_FROM_LENGTH = 2000;

/** The list URL `raw` names, when it is one of ours; null otherwise (an address elsewhere, junk). */
export function parseFrom(raw: string | null): URL | null {
  if (!raw || raw.length > MAX_FROM_LENGTH || !raw.startsWith("/") || raw.startsWith("//")) return null;
  let url: URL;
  try {
    url = new URL(raw, "http://admin.invalid");
  } catch {
    return null;
  }
  if (url.origin !== "http://admin.invalid" || !(LIST_PATHS as readonly string[]).includes(url.pathname))
    return null;
  return url;
}

/** A lead's page, opened from the list at `from` as its `at`-th lead (1-based). */
export function leadHref(id: number, list?: { from: string; at?: number }): string {
  if (!list) return `/admin/leads/${id}`;
  const params = new URLSearchParams({ [FROM_PARAM]: list.from });
  if (list.at && list.at > 0) params.set(AT_PARAM, String(list.at));
  return `/admin/leads/${id}?${params}`;
}

/** The list at `from`, on the page that holds its `at`-th lead (when known). */
export function backToList(from: URL, at: number | null): string {
  const url = new URL(from);
  if (at !== null) {
    const size = Number(url.searchParams.get("pageSize")) || DEFAULT_PAGE_SIZE;
    const page = Math.ceil(at / size);
    if (page > 1) url.searchParams.set("page", String(page));
    else url.searchParams.delete("page");
  }
  url.searchParams.delete("notice");
  return url.pathname + url.search;
}
