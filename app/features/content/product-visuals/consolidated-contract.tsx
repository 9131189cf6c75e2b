import type { ReactNode } from "react";
import { AppWindow, Chip, type ChipTone, ProductFigure, ScreenHeader } from "./product-frame.tsx";
import { amendments, sample } from "./sample-project.ts";

// The contract as it stands today: the original wording with each amendment merged in, struck-out
// and inserted text shown as <del>/<ins> (so assistive technology can announce them), and every
// change traced to the document that made it.

type Source = keyof typeof amendments;

const SOURCE_TONE: Record<Source, ChipTone> = { variation: "violet", schedule: "sky", sideLetter: "amber" };

const RAIL: Record<Source, string> = {
  variation: "border-violet-500",
  schedule: "border-sky-500",
  sideLetter: "border-amber-500",
};

/** The marker after a changed passage: which document changed it. */
function Trace({ source }: { source: Source }) {
  const amendment = amendments[source];
  return (
    <Chip tone={SOURCE_TONE[source]} className="ml-1 px-1.5 py-0 align-baseline">
      <span className="sr-only">changed by </span>
      {amendment.mark}
    </Chip>
  );
}

function Changed({ was, now }: { was: string; now: string }) {
  return (
    <>
      <del className="rounded-sm bg-red-50 px-0.5 text-red-800 decoration-red-700">{was}</del>{" "}
      <ins className="rounded-sm bg-emerald-50 px-0.5 text-emerald-900 no-underline">{now}</ins>
    </>
  );
}

function Clause({ number, title, children }: { number: string; title: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[2.75rem_minmax(0,1fr)] gap-x-2 py-2.5">
      <p className="font-mono text-xs leading-6 font-semibold text-ink-muted">{number}</p>
      <div className="min-w-0">
        <p className="text-sm font-semibold text-ink">{title}</p>
        <p className="mt-1 text-sm leading-6 text-slate-700">{children}</p>
      </div>
    </div>
  );
}

const CHANGES: { source: Source; clause: string; what: string }[] = [
  { source: "variation", clause: "cl. 2.3", what: "Completion date moved 8 weeks" },
  { source: "schedule", clause: "cl. 2.17.1", what: "Notice of delay: within 14 days" },
  { source: "sideLetter", clause: "cl. 4.9", what: "Retention cut from 5% to 3%" },
];

/**
 * The consolidated contract screen, without its figure (the home hero composes it with an answer).
 * `trace`: "panel" lists each change with its source beside the text; "strip" only names the
 * sources along the bottom edge (where the hero's answer card overlaps the window).
 */
export function ConsolidatedContractScreen({
  className,
  trace = "panel",
}: {
  className?: string;
  trace?: "panel" | "strip";
}) {
  return (
    <AppWindow title={`${sample.projectShort} · Contracts`} active="contracts" className={className}>
      <ScreenHeader
        title={`${sample.contract} — ${sample.subcontractor}`}
        detail={`${sample.form} · signed ${sample.signed} · 3 documents merged`}
      >
        <Chip tone="green">Current version</Chip>
      </ScreenHeader>
      <div
        className={trace === "panel" ? "grid grid-cols-1 @2xl:grid-cols-[minmax(0,1fr)_13rem]" : undefined}
      >
        <div className="divide-y divide-line px-4 py-1">
          <Clause number="2.3" title="Completion">
            The Sub-Contractor shall complete the Sub-Contract Works by{" "}
            <Changed was={sample.completionWas} now={sample.completionNow} />
            <Trace source="variation" />
          </Clause>
          {/* The hero leaves this clause out on a narrow screen to keep the first screens short. */}
          <div className={trace === "strip" ? "hidden @md:block" : undefined}>
            <Clause number="2.17.1" title="Notice of delay">
              The Sub-Contractor shall give written notice <Changed was="forthwith" now="within 14 days" /> of
              becoming aware that the progress of the works is or is likely to be delayed
              <Trace source="schedule" />
            </Clause>
          </div>
          <Clause number="4.9" title="Retention">
            The Retention Percentage is <Changed was="5%" now="3%" />, half released on practical completion
            <Trace source="sideLetter" />
          </Clause>
        </div>
        {trace === "panel" ? <ChangeTrace /> : null}
      </div>
      {trace === "strip" ? <TraceStrip /> : null}
    </AppWindow>
  );
}

function TraceStrip() {
  return (
    <p className="flex flex-wrap items-center justify-end gap-1.5 border-t border-line bg-surface-muted px-4 py-2.5 text-xs text-ink-muted @xl:min-h-12">
      <span className="mr-1">3 changes traced to</span>
      {CHANGES.map((change) => (
        <Chip key={change.source} tone={SOURCE_TONE[change.source]}>
          {amendments[change.source].mark}
          <span className="sr-only">: {amendments[change.source].title}</span>
        </Chip>
      ))}
    </p>
  );
}

function ChangeTrace() {
  return (
    <div className="border-t border-line bg-surface-muted px-4 py-3 @2xl:border-t-0 @2xl:border-l">
      <p className="text-xs font-semibold tracking-wide text-ink-muted uppercase">Change trace</p>
      <ul className="mt-2 space-y-2">
        {CHANGES.map((change) => {
          const amendment = amendments[change.source];
          return (
            <li
              key={change.source}
              className={`rounded-md border-l-4 bg-white px-2.5 py-1.5 shadow-xs ${RAIL[change.source]}`}
            >
              <p className="flex items-start justify-between gap-2 text-xs font-semibold text-ink">
                <span>{amendment.title}</span>
                <span className="shrink-0 font-mono text-ink-muted">{amendment.mark}</span>
              </p>
              <p className="text-xs leading-5 text-ink-muted">
                {change.clause} · {change.what} · {amendment.date}
              </p>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function ConsolidatedContractVisual({ className }: { className?: string }) {
  return (
    <ProductFigure
      className={className}
      caption="A sub-contract with its variation, schedule of amendments and side letter merged into the current version; each change is marked and traced to its source document."
    >
      <ConsolidatedContractScreen />
    </ProductFigure>
  );
}
