/**
 * Said on the Spam view (issue 13): held spam does not stay for ever. The period is the server's
 * SPAM_RETENTION_DAYS, counted from when the lead was held or last changed (lead-retention.server.ts).
 */
export function SpamRetentionNote({ days }: { days: number }) {
  return (
    <p className="text-sm text-ink-muted">
      Held spam is deleted after {days} {days === 1 ? "day" : "days"} (counted from when it was held or last
      changed). Release a genuine lead with “Not spam” to keep it.
    </p>
  );
}
