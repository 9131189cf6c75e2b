import { FILTER_KEYS } from "./lead-list-url.ts";

// Saved views of the lead list (issue 23), shared by the server and the page.

/** What a saved view keeps: the list's filters, its sort and its page size (never the page). */
export const SAVED_VIEW_KEYS = [...FILTER_KEYS, "sort", "order", "pageSize"] as const;

export const SAVED_VIEW_NAME_MAX = 60;

/** The views every account has without saving anything. */
export const BUILT_IN_VIEWS = [
  { key: "mine", name: "My leads", query: "owner=me" },
  { key: "unassigned", name: "Unassigned", query: "owner=none" },
] as const;
