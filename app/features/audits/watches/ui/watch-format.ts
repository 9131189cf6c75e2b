import { formatDateTime } from "#app/lib/format-date.ts";
import {
  type RunStatus,
  WATCH_CHECK_LABELS,
  WATCH_EVERY_LABELS,
  type WatchCheck,
  type WatchEvery,
} from "../watch-types.ts";

export const checksText = (checks: readonly WatchCheck[]) =>
  checks.map((check) => WATCH_CHECK_LABELS[check]).join(", ");

export const everyText = (every: WatchEvery) => WATCH_EVERY_LABELS[every];

export const RUN_STATUS_TEXT: Record<RunStatus, string> = {
  ok: "All checks ran",
  partial: "Some checks failed",
  failed: "Every check failed",
};

export const whenText = (iso: string | null) => (iso ? formatDateTime(iso) : "Not yet");

export const msText = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
export const clsText = (value: number) => value.toFixed(2);
export const dash = "—";
