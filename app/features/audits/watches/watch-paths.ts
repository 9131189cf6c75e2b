// The watches' addresses, for pages, links and redirects.
export const WATCHES_PATH = "/admin/watches";
export const watchPath = (id: number) => `${WATCHES_PATH}/${id}`;
export const runPath = (watchId: number, runId: number) => `${watchPath(watchId)}?run=${runId}#run`;
export const WATCH_API = "/api/admin/watches";

/** ?notice= after a redirect-after-post. */
export const WATCH_NOTICES = {
  created: "Watch added. Its first run is at the time shown; “Run now” runs it at once.",
  saved: "Changes saved.",
  paused: "Watch paused: it runs again once you resume it.",
  resumed: "Watch resumed.",
  ran: "Run finished: its results are below.",
  deleted: "Watch deleted, with its runs and alerts.",
} as const;
export type WatchNotice = keyof typeof WATCH_NOTICES;

export function readNotice(url: URL): WatchNotice | null {
  const value = url.searchParams.get("notice");
  return value && value in WATCH_NOTICES ? (value as WatchNotice) : null;
}
