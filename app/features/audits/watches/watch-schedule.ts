import type { WatchEvery } from "./watch-types.ts";

// When a watch runs (ADR 030). Each watch keeps a phase of its own within its period, derived from
// its id, so fifty daily watches spread over the day instead of all running at midnight, and the
// times stay the same across restarts, edits of anything but the period, and instances.

export const PERIOD_MS: Record<WatchEvery, number> = {
  hourly: 3_600_000,
  daily: 86_400_000,
  weekly: 7 * 86_400_000,
};

/** A stable spread of ids over [0, period): FNV-1a of the id, so neighbouring ids land far apart. */
export function phaseOffsetMs(watchId: number, every: WatchEvery): number {
  let hash = 0x811c9dc5;
  for (const char of `watch:${watchId}`) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % PERIOD_MS[every];
}

/** The watch's next slot strictly after `after`: the period's grid (from the epoch) plus its phase. */
export function nextRunAfter(watchId: number, every: WatchEvery, after: Date): Date {
  const period = PERIOD_MS[every];
  const phase = phaseOffsetMs(watchId, every);
  const time = after.getTime();
  const slot = Math.floor((time - phase) / period) * period + phase;
  return new Date(slot > time ? slot : slot + period);
}

/** A run that could not start (the audits were busy) is tried again this soon rather than a period later. */
export const BUSY_RETRY_MS = 60_000;
