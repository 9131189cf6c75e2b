import { createWorkSlots } from "#app/lib/work-slots.ts";

// Imports run one at a time per instance, from reading the file to the commit (issue 32): six
// 10,000-row imports at once held six parsed files, six plans and six transactions' statements in
// memory (920 MB), and their transactions queued for SQLite's one writer anyway. A few wait, their
// files unread in their connections; beyond that the request is refused at once (503, Retry-After).

export const importSlots = createWorkSlots({ running: 1, waiting: 4 });

export const IMPORT_BUSY_MESSAGE = "Other imports are being processed. Please try again in a few seconds.";
export const IMPORT_RETRY_AFTER_SECONDS = 5;
