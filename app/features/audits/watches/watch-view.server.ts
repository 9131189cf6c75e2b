import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import {
  type AlertRecord,
  findRun,
  findWatch,
  listAlerts,
  listOpenAlerts,
  listRuns,
  listWatches,
  type RunDetail,
  type RunSummary,
  type WatchListItem,
  type WatchRecord,
} from "./watch-store.server.ts";
import type { WatchCheck } from "./watch-types.ts";

// What the pages and the JSON API show, loaded once for both: the API answers with these objects.

/** Runs in the trend charts and the run list of a watch's page. */
export const TREND_RUNS = 200;

export type WatchListView = {
  watches: WatchListItem[];
  openAlerts: AlertRecord[];
  checks: readonly WatchCheck[];
};

export async function loadWatchList(
  db: Kysely<Database>,
  checks: readonly WatchCheck[],
): Promise<WatchListView> {
  const [watches, openAlerts] = await Promise.all([listWatches(db), listOpenAlerts(db)]);
  return { watches, openAlerts, checks };
}

export type WatchView = {
  watch: WatchRecord;
  /** The latest run with its checks' results, as the page shows it first. */
  latestRun: RunDetail | null;
  /** Newest first; the trend charts read them oldest first. */
  runs: RunSummary[];
  alerts: AlertRecord[];
};

export async function loadWatch(db: Kysely<Database>, id: number): Promise<WatchView | undefined> {
  const watch = await findWatch(db, id);
  if (!watch) return undefined;
  const [runs, alerts] = await Promise.all([listRuns(db, id, { limit: TREND_RUNS }), listAlerts(db, id)]);
  const latestRun = runs[0] ? ((await findRun(db, id, runs[0].id)) ?? null) : null;
  return { watch, latestRun, runs, alerts };
}

export function parseId(raw: string | null | undefined): number | null {
  const id = typeof raw === "string" && /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
