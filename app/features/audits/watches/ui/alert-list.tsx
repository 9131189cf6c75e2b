import { Link } from "react-router";
import { formatDateTime } from "#app/lib/format-date.ts";
import { ALERT_CONDITION_LABELS, type AlertCondition } from "../watch-alerts.ts";
import { runPath, watchPath } from "../watch-paths.ts";
import type { AlertRecord } from "../watch-store.server.ts";

const conditionLabel = (condition: string) =>
  ALERT_CONDITION_LABELS[condition as AlertCondition] ?? condition;

/** Alerts as a list: what got worse, when, whether it cleared, and how many notices went out. */
export function AlertList({
  alerts,
  showSite = false,
}: {
  alerts: readonly AlertRecord[];
  showSite?: boolean;
}) {
  return (
    <ul className="grid gap-3">
      {alerts.map((alert) => {
        const open = alert.resolvedAt === null;
        return (
          <li
            key={alert.id}
            className={`rounded-lg border p-4 ${open ? "border-danger bg-red-50" : "border-line bg-white"}`}
            data-testid="watch-alert"
          >
            <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
              <span className={`text-sm font-bold uppercase ${open ? "text-danger" : "text-success"}`}>
                {open ? "Open" : "Resolved"}
              </span>
              <span className="font-semibold">{conditionLabel(alert.condition)}</span>
              {showSite && alert.url ? (
                <Link
                  to={watchPath(alert.watchId)}
                  className="break-all text-brand underline underline-offset-2"
                >
                  {alert.url}
                </Link>
              ) : null}
            </div>
            <p className="mt-1 leading-6">{alert.message}</p>
            <p className="mt-1 text-sm text-ink-muted">
              Opened {formatDateTime(alert.openedAt)}
              {alert.openedRunId ? (
                <>
                  {" "}
                  by{" "}
                  <Link
                    to={runPath(alert.watchId, alert.openedRunId)}
                    className="underline underline-offset-2"
                  >
                    run {alert.openedRunId}
                  </Link>
                </>
              ) : null}
              {" · "}
              {alert.openedNotices} notice{alert.openedNotices === 1 ? "" : "s"} queued
              {alert.resolvedAt ? (
                <>
                  {" · "}resolved {formatDateTime(alert.resolvedAt)}: {alert.resolvedMessage}
                </>
              ) : null}
            </p>
          </li>
        );
      })}
    </ul>
  );
}
