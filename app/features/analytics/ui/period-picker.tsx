import { Form, Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/cn.ts";
import { PERIOD_PRESETS, PRESET_LABELS, type ReportPeriod } from "../report-period.ts";

const dateInputClass =
  "h-11 rounded-md border border-ink-muted bg-white px-3 text-base font-normal text-ink focus-visible:border-brand focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand";

/**
 * The period: one link per preset (the current one marked), and a custom range as a plain GET form
 * with two date inputs. Both are ordinary requests: no JavaScript needed.
 */
export function PeriodPicker({
  period,
  today,
  basePath,
}: {
  period: Pick<ReportPeriod, "from" | "to" | "preset"> | null;
  today: string;
  basePath: string;
}) {
  return (
    <div className="flex flex-wrap items-end gap-x-6 gap-y-4">
      <nav aria-label="Period">
        <ul className="flex flex-wrap gap-2">
          {PERIOD_PRESETS.map((preset) => {
            const current = period?.preset === preset;
            return (
              <li key={preset}>
                <Link
                  to={`${basePath}?period=${preset}`}
                  aria-current={current ? "page" : undefined}
                  className={cn(
                    "inline-flex h-11 items-center rounded-md border px-4 font-semibold",
                    current
                      ? "border-brand bg-brand text-white"
                      : "border-line bg-white text-brand hover:bg-brand-soft",
                  )}
                >
                  {PRESET_LABELS[preset]}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <Form
        method="get"
        action={basePath}
        className="flex flex-wrap items-end gap-3"
        aria-label="Custom period"
      >
        <label className="grid gap-1 text-sm font-semibold">
          From
          <input
            type="date"
            name="from"
            required
            min="2000-01-01"
            max={today}
            defaultValue={period?.from}
            className={dateInputClass}
          />
        </label>
        <label className="grid gap-1 text-sm font-semibold">
          To
          <input
            type="date"
            name="to"
            required
            min="2000-01-01"
            max={today}
            defaultValue={period?.to}
            className={dateInputClass}
          />
        </label>
        <Button type="submit" variant={period?.preset === "custom" ? "primary" : "outline"}>
          Show period
        </Button>
      </Form>
    </div>
  );
}
