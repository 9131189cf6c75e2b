import type { AuditIssue, Grade } from "../audit-types.ts";

/** One stored security audit as the page shows it (the loader formats the date for both renders). */
export type AuditRow = {
  id: number | string;
  /** Formatted for display ("Nov 21, 2026, 10:05 AM", UK time). */
  date: string;
  /** The stored ISO date, for <time dateTime>. */
  isoDate: string;
  url: string;
  score: number;
  uncappedScore: number;
  /** The HTTP Observatory scoring algorithm version that graded it. */
  algorithmVersion: number;
  grade: Grade | string;
  issues: AuditIssue[];
};
