import type { PostStatus } from "./post-fields.ts";

// What readers see (issue 24, ADR 025): a post scheduled for a time that has passed IS published.
// No job flips the stored status at that moment, so every instance agrees at once, whatever its
// timers did; the store answers every read with the status as of the clock it is given.

/** The status of a post as readers see it at `now`. */
export function effectiveStatus(stored: PostStatus, publishAt: string | null, now: Date): PostStatus {
  if (stored === "scheduled" && publishAt !== null && publishAt <= now.toISOString()) return "published";
  return stored;
}

/** Whether readers see the post at `now`. */
export function isVisible(stored: PostStatus, publishAt: string | null, now: Date): boolean {
  return effectiveStatus(stored, publishAt, now) === "published";
}
