import { breaksTextRule } from "#app/lib/text-rules.ts";
import { POST_KINDS, POST_STATUSES, type PostKind, type PostStatus } from "../posts/post-fields.ts";

// The studio list's filters as its URL holds them (issue 24): shared by its loader and its links.

export const POSTS_PER_PAGE = 25;
/** The days the list's views and leads cover, today included. */
export const TRAFFIC_DAYS = 30;
const MAX_QUERY = 100;

export type PostListFilters = { status: PostStatus | ""; kind: PostKind | ""; q: string; page: number };

/** The list's filters from its URL; anything unknown or malformed is simply not a filter. */
export function readFilters(url: URL): PostListFilters {
  const status = url.searchParams.get("status") ?? "";
  const kind = url.searchParams.get("kind") ?? "";
  const rawQ = (url.searchParams.get("q") ?? "").trim().slice(0, MAX_QUERY);
  const page = Number(url.searchParams.get("page") ?? "1");
  return {
    status: (POST_STATUSES as readonly string[]).includes(status) ? (status as PostStatus) : "",
    kind: (POST_KINDS as readonly string[]).includes(kind) ? (kind as PostKind) : "",
    q: breaksTextRule(rawQ, "one-line") ? "" : rawQ,
    page: Number.isSafeInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/** The list's address with these filters (empty ones left out). */
export function listHref(filters: Partial<PostListFilters>): string {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  if (filters.status) params.set("status", filters.status);
  if (filters.kind) params.set("kind", filters.kind);
  if (filters.page && filters.page > 1) params.set("page", String(filters.page));
  const query = params.toString();
  return query ? `?${query}` : "?";
}
