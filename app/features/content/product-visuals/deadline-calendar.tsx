import { cn } from "#app/lib/cn.ts";
import { AppWindow, Chip, type ChipTone, ProductFigure, ScreenHeader } from "./product-frame.tsx";
import { sample } from "./sample-project.ts";

// April 2026 on the sample project: notice periods drawn as bars from the event that starts them
// to the last day to act, single-day deadlines as markers, and the same dates as a list (the list
// is the content; the month grid is a picture of it, named by a summary for screen readers).

/** 1 April 2026 is a Wednesday: its index in a week that starts on Monday. */
const FIRST_WEEKDAY = 2;
const DAYS_IN_MONTH = 30;
const TODAY = 13;
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

type Kind = "notice" | "payment" | "milestone";

const BAR: Record<Kind, string> = {
  notice: "bg-red-100 text-red-900 border-red-600",
  payment: "bg-sky-100 text-sky-900 border-sky-600",
  milestone: "bg-violet-100 text-violet-900 border-violet-600",
};

/** Single-day deadlines: a marker and, when there is room, the label running into the next day. */
const DOT: Record<Kind, string> = { notice: "bg-red-600", payment: "bg-sky-600", milestone: "bg-violet-600" };
const DOT_TEXT: Record<Kind, string> = {
  notice: "text-red-900",
  payment: "text-sky-900",
  milestone: "text-violet-900",
};

const PERIODS: { kind: Kind; from: number; to: number; label: string; lane: 1 | 2 }[] = [
  { kind: "notice", from: 2, to: 16, label: "Notice of delay · CI-31", lane: 1 },
  { kind: "payment", from: 7, to: 21, label: "Pay-less notice · App 14", lane: 2 },
  { kind: "milestone", from: 24, to: 24, label: "Completion", lane: 1 },
  { kind: "payment", from: 28, to: 28, label: "Final payment", lane: 1 },
  { kind: "milestone", from: 30, to: 30, label: "Insurance", lane: 2 },
];

// NOTE: whole class names, never built from parts, so Tailwind finds them in this file.
const COL_START = [
  "col-start-1",
  "col-start-2",
  "col-start-3",
  "col-start-4",
  "col-start-5",
  "col-start-6",
  "col-start-7",
];
const COL_SPAN = [
  "col-span-1",
  "col-span-2",
  "col-span-3",
  "col-span-4",
  "col-span-5",
  "col-span-6",
  "col-span-7",
];
const ROW_START = ["", "row-start-1", "row-start-2"];

const cellIndex = (day: number) => day - 1 + FIRST_WEEKDAY;
const WEEKS = Math.ceil((FIRST_WEEKDAY + DAYS_IN_MONTH) / 7);

/** The parts of a period that fall in one week row: the column it starts in and how many it spans. */
function segmentsInWeek(week: number) {
  return PERIODS.flatMap((period) => {
    const start = Math.max(cellIndex(period.from), week * 7);
    const end = Math.min(cellIndex(period.to), week * 7 + 6);
    if (start > end) return [];
    return [
      {
        ...period,
        col: start - week * 7,
        span: end - start + 1,
        first: start === cellIndex(period.from),
        last: end === cellIndex(period.to),
      },
    ];
  });
}

/** The day number shown in a cell, with March and May days before and after the month. */
function dayOf(index: number) {
  const day = index - FIRST_WEEKDAY + 1;
  if (day < 1) return { label: String(31 + day), inMonth: false, day };
  if (day > DAYS_IN_MONTH) return { label: String(day - DAYS_IN_MONTH), inMonth: false, day };
  return { label: String(day), inMonth: true, day };
}

const AGENDA: { date: string; what: string; source: string; left: string; tone: ChipTone }[] = [
  {
    date: "Thu 16 Apr",
    what: "Notice of delay for instruction CI-31",
    source: "cl. 2.17.1 · 14 days from 2 Apr",
    left: "3 days",
    tone: "red",
  },
  {
    date: "Tue 21 Apr",
    what: "Pay-less notice, application 14",
    source: "cl. 4.12 · 7 days before final date",
    left: "8 days",
    tone: "amber",
  },
  {
    date: "Fri 24 Apr",
    what: "Completion date",
    source: "cl. 2.3 · as moved by V-07",
    left: "11 days",
    tone: "violet",
  },
  {
    date: "Tue 28 Apr",
    what: "Final date for payment, application 14",
    source: "cl. 4.10 · 21 days from due date",
    left: "15 days",
    tone: "sky",
  },
];

const CALENDAR_SUMMARY =
  "April 2026 calendar. Notice of delay period from 2 to 16 April; pay-less notice period from 7 to 21 April; completion on 24 April; final date for payment on 28 April; insurance renewal on 30 April. Today is 13 April.";

/** The month as week rows: each row's seven day cells and the parts of periods that fall in it. */
const WEEK_ROWS = Array.from({ length: WEEKS }, (_, week) => {
  const cells = Array.from({ length: 7 }, (_, col) => ({ ...dayOf(week * 7 + col), col }));
  return { id: `week-from-${cells[0]?.day}`, cells, segments: segmentsInWeek(week) };
});

function MonthGrid() {
  return (
    <div role="img" aria-label={CALENDAR_SUMMARY} className="min-w-0">
      <div className="grid grid-cols-7 border-b border-line pb-1 text-center text-xs font-semibold text-ink-muted">
        {WEEKDAYS.map((weekday) => (
          <span key={weekday}>
            {weekday.slice(0, 1)}
            <span className="hidden @lg:inline">{weekday.slice(1)}</span>
          </span>
        ))}
      </div>
      {WEEK_ROWS.map((row) => (
        <div key={row.id} className="relative h-14 border-b border-line @2xl:h-[4.5rem]">
          <div className="grid h-full grid-cols-7">
            {row.cells.map((cell) => (
              <span
                key={cell.day}
                className={cn(
                  "border-line px-1 pt-1 text-xs",
                  cell.col > 0 && "border-l",
                  cell.col >= 5 && "bg-surface-muted",
                  cell.inMonth ? "text-ink" : "text-slate-500",
                )}
              >
                <span
                  className={cn(
                    "inline-grid size-5 place-items-center rounded-full",
                    cell.day === TODAY && "bg-brand font-semibold text-white",
                  )}
                >
                  {cell.label}
                </span>
              </span>
            ))}
          </div>
          <div className="absolute inset-x-0 top-7 grid grid-cols-7 gap-y-1 @2xl:top-8">
            {row.segments.map((segment) =>
              segment.from === segment.to ? (
                <span
                  key={`${segment.label}-${segment.from}`}
                  className={cn(
                    "flex h-2 items-center gap-1 px-1.5 text-xs leading-5 font-semibold whitespace-nowrap @2xl:h-5",
                    COL_START[segment.col],
                    ROW_START[segment.lane],
                    DOT_TEXT[segment.kind],
                  )}
                >
                  <span className={cn("size-2 shrink-0 rotate-45 rounded-xs", DOT[segment.kind])} />
                  <span className="hidden @2xl:inline">{segment.label}</span>
                </span>
              ) : (
                <span
                  key={`${segment.label}-${segment.from}-${segment.col}`}
                  className={cn(
                    "h-2 min-w-0 truncate text-xs leading-5 font-semibold @2xl:h-5 @2xl:px-1.5",
                    COL_START[segment.col],
                    COL_SPAN[segment.span - 1],
                    ROW_START[segment.lane],
                    BAR[segment.kind],
                    segment.first ? "ml-1 rounded-l-full @2xl:rounded-l-md" : "",
                    segment.last ? "mr-1 rounded-r-full border-r-4 @2xl:rounded-r-md" : "",
                  )}
                >
                  <span className="hidden @2xl:inline">
                    {segment.first || segment.col === 0 ? segment.label : ""}
                  </span>
                </span>
              ),
            )}
          </div>
        </div>
      ))}
    </div>
  );
}

export function DeadlineCalendarScreen({ className }: { className?: string }) {
  return (
    <AppWindow title={`${sample.projectShort} · Deadlines`} active="deadlines" className={className}>
      <ScreenHeader
        title="Deadlines · April 2026"
        detail={`Today ${sample.today} · reminders to P. Nair and S. Okoro`}
      >
        <Chip tone="red">Notice period</Chip>
        <Chip tone="sky">Payment</Chip>
        <Chip tone="violet">Milestone</Chip>
      </ScreenHeader>
      <div className="grid grid-cols-1 @3xl:grid-cols-[minmax(0,1fr)_15rem]">
        <div className="px-3 py-3">
          <MonthGrid />
        </div>
        <div className="border-t border-line bg-surface-muted px-4 py-3 @3xl:border-t-0 @3xl:border-l">
          <p className="text-xs font-semibold tracking-wide text-ink-muted uppercase">Coming up</p>
          <ul className="mt-2 grid gap-2 @2xl:grid-cols-2 @3xl:grid-cols-1">
            {AGENDA.map((item) => (
              <li key={item.date} className="rounded-md bg-white px-2.5 py-2 shadow-xs ring-1 ring-line">
                <p className="flex items-center justify-between gap-2 text-xs font-semibold text-ink">
                  {item.date}
                  <Chip tone={item.tone}>{item.left}</Chip>
                </p>
                <p className="mt-1 text-sm leading-5 text-ink">{item.what}</p>
                <p className="mt-0.5 text-xs text-ink-muted">{item.source}</p>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </AppWindow>
  );
}

export function DeadlineCalendarVisual({ className }: { className?: string }) {
  return (
    <ProductFigure
      className={className}
      caption="The April deadline calendar: notice periods drawn from the event that starts them to the last day to act, with the deadlines of the next weeks and the clauses that set them."
    >
      <DeadlineCalendarScreen />
    </ProductFigure>
  );
}
