import type { ReactNode } from "react";
import { cn } from "#app/lib/cn.ts";
import { ILLUSTRATIVE, sample } from "./sample-project.ts";

// The parts every illustrative product screen shares: the figure with its "illustrative" caption,
// the application window (title bar and sidebar) and the small pieces of UI inside (chips, icons).
// NOTE: server-rendered markup only (no state, no effects, no event handlers): the public pages
// ship no JavaScript, so a screen must be complete as HTML and CSS. Sizes follow the screen's own
// width through container queries (@container), not the viewport's, because the same screen sits
// in a half-width hero column on one page and a wide row on another.

export type AppSection = "documents" | "contracts" | "deadlines" | "ask" | "insights" | "access";

/** A figure whose accessible name is its caption, which always says the screen is illustrative. */
export function ProductFigure({
  caption,
  tone = "light",
  className,
  children,
}: {
  /** What the screen shows, after the "illustrative" notice. */
  caption: string;
  /** "dark" when the figure sits on the navy brand background. */
  tone?: "light" | "dark";
  className?: string;
  children: ReactNode;
}) {
  return (
    <figure className={cn("@container m-0 min-w-0", className)}>
      {children}
      <figcaption
        className={cn(
          "mt-3 flex gap-2 text-sm leading-6",
          tone === "dark" ? "text-slate-200" : "text-ink-muted",
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            "mt-1.5 size-3 shrink-0 rounded-full border-2",
            tone === "dark" ? "border-accent" : "border-brand",
          )}
        />
        <span>
          <span className={cn("font-semibold", tone === "dark" ? "text-white" : "text-ink")}>
            {ILLUSTRATIVE}
          </span>{" "}
          {caption}
        </span>
      </figcaption>
    </figure>
  );
}

const NAV: { id: AppSection; label: string }[] = [
  { id: "documents", label: "Documents" },
  { id: "contracts", label: "Contracts" },
  { id: "deadlines", label: "Deadlines" },
  { id: "ask", label: "Ask" },
  { id: "insights", label: "Insights" },
  { id: "access", label: "Access" },
];

/** The application window: title bar, a sidebar once the screen is wide enough, and the content. */
export function AppWindow({
  title,
  active,
  children,
  className,
}: {
  /** The window title: the page of the app the screen shows. */
  title: string;
  active: AppSection;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        "overflow-hidden rounded-xl border border-slate-300/70 bg-white text-left text-ink shadow-2xl shadow-brand/15",
        className,
      )}
    >
      {/* The title bar and the sidebar imitate the app's frame: decoration, hidden from screen readers. */}
      <div
        aria-hidden="true"
        className="flex h-9 items-center gap-3 border-b border-line bg-surface-muted px-3"
      >
        <span className="flex shrink-0 gap-1.5">
          <span className="size-2.5 rounded-full bg-slate-300" />
          <span className="size-2.5 rounded-full bg-slate-300" />
          <span className="size-2.5 rounded-full bg-slate-300" />
        </span>
        <span className="min-w-0 flex-1 truncate text-center text-xs font-medium text-ink-muted">
          <span className="hidden @md:inline">Clausebridge · </span>
          {title}
        </span>
        <span className="hidden shrink-0 rounded-full bg-accent/25 px-2 text-xs font-semibold text-accent-ink @md:inline">
          Sample
        </span>
      </div>
      <div className="flex">
        <nav
          aria-hidden="true"
          className="hidden w-40 shrink-0 flex-col gap-0.5 bg-brand-strong p-3 text-xs text-slate-300 @3xl:flex"
        >
          <span className="mb-3 flex items-center gap-2 px-2 pt-1 text-sm font-bold text-white">
            <span className="grid size-5 place-items-center rounded bg-white text-brand">
              <Icon name="documents" className="size-3.5" />
            </span>
            Clausebridge
          </span>
          <span className="mb-3 rounded-md border border-white/15 px-2 py-1.5 text-white">
            <span className="block text-slate-300">Project</span>
            <span className="block truncate font-semibold">{sample.projectShort}</span>
          </span>
          {NAV.map((item) => (
            <span
              key={item.id}
              className={cn(
                "flex items-center gap-2 rounded-md px-2 py-1.5",
                item.id === active && "bg-white/10 font-semibold text-white",
              )}
            >
              <Icon name={item.id} className="size-3.5" />
              {item.label}
            </span>
          ))}
        </nav>
        <div className="min-w-0 flex-1">{children}</div>
      </div>
    </div>
  );
}

/** The header row of a screen: what it shows, and chips on the right. */
export function ScreenHeader({
  title,
  detail,
  children,
}: {
  title: string;
  detail?: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 border-b border-line px-4 py-3">
      <div className="min-w-0">
        <p className="text-sm font-semibold text-ink">{title}</p>
        {detail ? <p className="mt-0.5 text-xs text-ink-muted">{detail}</p> : null}
      </div>
      {children ? <div className="flex flex-wrap gap-1.5">{children}</div> : null}
    </div>
  );
}

export type ChipTone = "green" | "amber" | "red" | "blue" | "violet" | "sky" | "grey";

const CHIP_TONES: Record<ChipTone, string> = {
  green: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  amber: "bg-amber-50 text-amber-900 ring-amber-600/25",
  red: "bg-red-50 text-red-800 ring-red-600/20",
  blue: "bg-brand-soft text-brand ring-brand/15",
  violet: "bg-violet-50 text-violet-800 ring-violet-600/20",
  sky: "bg-sky-50 text-sky-900 ring-sky-600/20",
  grey: "bg-slate-100 text-slate-700 ring-slate-500/20",
};

/** A status chip, as the app colours them. */
export function Chip({
  tone,
  children,
  className,
}: {
  tone: ChipTone;
  children: ReactNode;
  className?: string;
}) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset",
        CHIP_TONES[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}

/** Line icons drawn on a 16-unit grid: a few strokes each, so the markup stays small. */
const ICON_PATHS: Record<AppSection | "send" | "lock" | "check" | "file" | "spark", string> = {
  documents: "M4 2h5l3 3v9H4z M9 2v3h3",
  contracts: "M3 3h10v10H3z M5.5 6h5 M5.5 8.5h5 M5.5 11h3",
  deadlines: "M2.5 4h11v9.5h-11z M2.5 7h11 M5.5 2.5v3 M10.5 2.5v3",
  ask: "M2.5 3.5h11v7h-6l-3 2.5v-2.5h-2z",
  insights: "M3 13V8 M6.5 13V4 M10 13V9.5 M13.5 13V6",
  access: "M8 2.5l5 2v4c0 3-2.5 4.5-5 5.5-2.5-1-5-2.5-5-5.5v-4z",
  send: "M2.5 8h9 M8 4.5L11.5 8 8 11.5",
  lock: "M4 7.5h8v6H4z M5.5 7.5V5.5a2.5 2.5 0 0 1 5 0v2",
  check: "M3.5 8.5l3 3 6-7",
  file: "M4 2h5l3 3v9H4z M9 2v3h3 M6 8.5h4 M6 11h4",
  spark: "M8 2v4 M8 10v4 M2 8h4 M10 8h4",
};

export function Icon({ name, className }: { name: keyof typeof ICON_PATHS; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={cn("shrink-0", className)}
    >
      <path d={ICON_PATHS[name]} />
    </svg>
  );
}
